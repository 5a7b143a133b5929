import type { Migration } from '@ledgerline/platform';

/**
 * The workspace's members (decision 0036): the drawer's `workspace_members_seen` (users the ledger saw act) becomes
 * the member list kept from identity's member.changed: the role, when identity said they left (`removed_at`; the row
 * stays so their comments keep their name), and the version of the state held. Rows seen before stay current
 * members (version 0) until identity's events (its backfill re-publishes every current membership) say otherwise.
 * The table keeps its row-level-security policy through the rename.
 */
export const membersMigration: Migration = {
  name: '20261229100000_ledger_workspace_members',
  async up(knex) {
    await knex.schema.renameTable('workspace_members_seen', 'workspace_members');
    await knex.schema.alterTable('workspace_members', (t) => {
      t.text('role');
      t.timestamp('removed_at', { useTz: true });
      t.bigInteger('version').notNullable().defaultTo(0);
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
  },
  async down(knex) {
    // Back to the users seen: those identity said left are not members any more.
    await knex('workspace_members').whereNotNull('removed_at').delete();
    await knex.schema.alterTable('workspace_members', (t) => {
      for (const c of ['role', 'removed_at', 'version', 'updated_at']) t.dropColumn(c);
    });
    await knex.schema.renameTable('workspace_members', 'workspace_members_seen');
  },
};
