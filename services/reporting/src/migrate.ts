// The start-up step (locally) and the Helm pre-upgrade Job (in a cluster): provision and migrate once.
import { createDb, createLogger, grantAppRole, loadConfig, migrateLatest, provisionDatabase } from '@ledgerline/platform';
import { reportingConfigSchema } from './config.js';
import { reportingMigrations } from './store/migrations.js';

export async function migrateReporting(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const config = loadConfig(reportingConfigSchema, env);
  const app = new URL(config.REPORTING_DATABASE_URL);
  const database = app.pathname.slice(1);
  await provisionDatabase({ adminUrl: config.REPORTING_DATABASE_ADMIN_URL, database, appRole: decodeURIComponent(app.username), appPassword: app.password ? decodeURIComponent(app.password) : undefined });
  const admin = createDb({ url: config.REPORTING_DATABASE_ADMIN_URL, pool: { max: 1 } });
  try {
    const applied = await migrateLatest(admin, reportingMigrations);
    await grantAppRole(admin, decodeURIComponent(app.username));
    return applied;
  } finally {
    await admin.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const logger = createLogger('reporting-migrate');
  migrateReporting()
    .then((applied) => logger.info({ applied }, 'reporting database migrated'))
    .catch((err: unknown) => {
      logger.error({ err }, 'migration failed');
      process.exit(1);
    });
}
