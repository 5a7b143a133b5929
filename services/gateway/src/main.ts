import { assertServiceTrustConfig, ConfigError, createLogger, runUntilSignal } from '@ledgerline/platform';
import { buildGateway } from './app.js';
import { loadGatewayConfig } from './config.js';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  assertServiceTrustConfig(config);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const app = await buildGateway({ config, logger });
  const url = await app.listen({ port: config.GATEWAY_PORT, host: config.HOST });
  logger.info({ url, identity: config.IDENTITY_URL, redis: Boolean(config.REDIS_URL) }, `gateway listening on ${url}`);
  runUntilSignal(logger, () => app.close());
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
