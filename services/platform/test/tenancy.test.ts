import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableTenantRls, newId, platformMigrations, tablesMissingRls, withTenant, type Migration } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

const migrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261123100000_test_notes',
    async up(knex) {
      await knex.schema.createTable('notes', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('body').notNullable();
      });
      await enableTenantRls(knex, 'notes');
    },
    async down(knex) {
      await knex.schema.dropTable('notes');
    },
  },
  {
    name: '20261123100001_test_unprotected',
    async up(knex) {
      await knex.schema.createTable('leaky', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable('leaky');
    },
  },
];

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('platform_tenancy', migrations);
});
afterAll(async () => db?.drop());

describe('row-level security', () => {
  it('shows a tenant only its own rows, and nothing without a tenant', async () => {
    const a = newId();
    const b = newId();
    await withTenant(db.appDb, { workspaceId: a }, (trx) => trx('notes').insert({ id: newId(), workspace_id: a, body: 'a' }));
    await withTenant(db.appDb, { workspaceId: b }, (trx) => trx('notes').insert({ id: newId(), workspace_id: b, body: 'b' }));
    expect(await withTenant(db.appDb, { workspaceId: a }, (trx) => trx('notes').pluck('body'))).toEqual(['a']);
    expect(await db.appDb('notes').select()).toEqual([]);
    // Writing another tenant's row is refused by the policy's check.
    await expect(withTenant(db.appDb, { workspaceId: a }, (trx) => trx('notes').insert({ id: newId(), workspace_id: b, body: 'x' }))).rejects.toThrow(
      /row-level security/,
    );
    // The setting is transaction-local: the pooled connection forgets it.
    expect(await db.appDb('notes').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('runs as a role that is neither owner, superuser nor BYPASSRLS', async () => {
    const { rows } = await db.appDb.raw('select rolsuper, rolbypassrls from pg_roles where rolname = current_user');
    expect(rows).toEqual([{ rolsuper: false, rolbypassrls: false }]);
    const owners = await db.adminDb.raw("select distinct tableowner from pg_tables where schemaname = 'public'");
    expect(owners.rows.map((r: { tableowner: string }) => r.tableowner)).not.toContain((await db.appDb.raw('select current_user as u')).rows[0].u);
  });

  it('finds a tenant table that lacks row-level security', async () => {
    expect(await tablesMissingRls(db.adminDb)).toEqual(['leaky']);
  });
});
