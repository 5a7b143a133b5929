// RELIABILITY 9 / issue #15: the application role cannot bypass row-level security by declaring itself
// "system"; only the separate `<app role>_system` role (and the owner, for migrations) may see every tenant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableTenantRls, newId, platformMigrations, systemPoolOf, withSystem, withTenant, type Migration } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

const migrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261127100000_test_secrets',
    async up(knex) {
      await knex.schema.createTable('secrets', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('body').notNullable();
      });
      await enableTenantRls(knex, 'secrets');
    },
    async down(knex) {
      await knex.schema.dropTable('secrets');
    },
  },
];

let db: TestDatabase;
const mine = newId();
const theirs = newId();
beforeAll(async () => {
  db = await createTestDatabase('platform_system_role', migrations);
  await withTenant(db.appDb, { workspaceId: mine }, (trx) => trx('secrets').insert({ id: newId(), workspace_id: mine, body: 'mine' }));
  await withTenant(db.appDb, { workspaceId: theirs }, (trx) => trx('secrets').insert({ id: newId(), workspace_id: theirs, body: 'theirs' }));
});
afterAll(async () => db?.drop());

describe('the application role', () => {
  it("reads no other tenant's rows after `set app.system = 'on'`", async () => {
    const rows = await db.appDb.transaction(async (trx) => {
      await trx.raw("set local app.system = 'on'");
      await trx.raw("select set_config('app.workspace_id', ?, true)", [mine]);
      return trx('secrets').orderBy('body').pluck('body');
    });
    expect(rows).toEqual(['mine']);
  });

  it("reads no row at all after set_config('app.system', 'on') at session level, and cannot write across tenants", async () => {
    const rows = await db.appDb.transaction(async (trx) => {
      await trx.raw("select set_config('app.system', 'on', false)");
      const seen = await trx('secrets').pluck('body');
      await trx.raw("select set_config('app.system', '', false)");
      return seen;
    });
    expect(rows).toEqual([]);
    await expect(
      db.appDb.transaction(async (trx) => {
        await trx.raw("select set_config('app.system', 'on', true)");
        await trx('secrets').insert({ id: newId(), workspace_id: theirs, body: 'forged' });
      }),
    ).rejects.toThrow(/row-level security/);
    expect(await db.adminDb('secrets').where({ body: 'forged' }).count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('cannot become the system role', async () => {
    await expect(db.appDb.raw(`set role "${(await db.systemDb.raw('select current_user as u')).rows[0].u}"`)).rejects.toThrow(/permission denied/);
  });
});

describe('the system role', () => {
  it('sees every tenant inside withSystem, which runs on the pool paired with the application pool', async () => {
    expect(systemPoolOf(db.appDb)).toBe(db.systemDb);
    expect(await withSystem(db.appDb, (trx) => trx('secrets').orderBy('body').pluck('body'))).toEqual(['mine', 'theirs']);
    const who = await withSystem(db.appDb, (trx) => trx.raw('select current_user as u, rolsuper, rolbypassrls from pg_roles where rolname = current_user'));
    expect(who.rows).toEqual([{ u: `${(await db.appDb.raw('select current_user as u')).rows[0].u}_system`, rolsuper: false, rolbypassrls: false }]);
  });

  it('is held to the tenant outside withSystem', async () => {
    expect(await db.systemDb('secrets').pluck('body')).toEqual([]);
    expect(await withTenant(db.systemDb, { workspaceId: theirs }, (trx) => trx('secrets').pluck('body'))).toEqual(['theirs']);
  });
});
