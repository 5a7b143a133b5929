import type { Knex } from 'knex';

/**
 * A migration is a timestamped, reversible step. Names start with a UTC timestamp (YYYYMMDDHHMMSS_)
 * so they sort in the order they were written; they are never edited once committed.
 * Migrations are listed statically (not read from a folder): knex's folder loader fails under vitest.
 */
export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

class StaticMigrationSource implements Knex.MigrationSource<Migration> {
  constructor(private readonly migrations: readonly Migration[]) {
    const names = new Set<string>();
    for (const m of migrations) {
      if (!/^\d{14}_[a-z0-9_]+$/.test(m.name)) throw new Error(`Migration name must be <14-digit timestamp>_<snake_case>: ${m.name}`);
      if (names.has(m.name)) throw new Error(`Duplicate migration ${m.name}`);
      names.add(m.name);
    }
  }
  async getMigrations(): Promise<Migration[]> {
    return [...this.migrations].sort((a, b) => a.name.localeCompare(b.name));
  }
  getMigrationName(m: Migration): string {
    return m.name;
  }
  async getMigration(m: Migration): Promise<Knex.Migration> {
    return { up: m.up, down: m.down };
  }
}

export async function migrateLatest(adminDb: Knex, migrations: readonly Migration[]): Promise<string[]> {
  const [, applied] = (await adminDb.migrate.latest({ migrationSource: new StaticMigrationSource(migrations) })) as [number, string[]];
  return applied;
}

export async function migrateRollbackAll(adminDb: Knex, migrations: readonly Migration[]): Promise<void> {
  await adminDb.migrate.rollback({ migrationSource: new StaticMigrationSource(migrations) }, true);
}
