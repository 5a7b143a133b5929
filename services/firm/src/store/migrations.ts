import { createMailOutboxTable, dropMailOutboxTable, platformMigrations, type Knex, type Migration } from '@ledgerline/platform';

/**
 * Row-level security by firm (README "Tenancy"): a row is visible and writable when its firm is the
 * transaction's firm (`app.firm_id`, set by `withFirmCaller` from the caller's own membership), or in
 * system transactions. A member's own membership row is also visible by their user id, which is how the
 * service finds the caller's firm.
 */
async function enableFirmRls(knex: Knex, table: string, alsoVisibleWhen?: string, column = 'firm_id'): Promise<void> {
  const condition = `${column} = app_firm_id() or app_is_system()${alsoVisibleWhen ? ` or (${alsoVisibleWhen})` : ''}`;
  await knex.raw('alter table ?? enable row level security', [table]);
  await knex.raw('alter table ?? force row level security', [table]);
  await knex.raw(`create policy firm_isolation on ?? using (${condition}) with check (${condition})`, [table]);
}

/** The firm database: the platform's tenancy functions, outbox and inbox, then firms and everything a firm keeps. */
export const firmMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261127194000_firms',
    async up(knex) {
      await knex.raw(`create or replace function app_firm_id() returns uuid language sql stable as
        $$ select nullif(current_setting('app.firm_id', true), '')::uuid $$`);
      await knex.schema.createTable('firms', (t) => {
        t.uuid('id').primary();
        t.text('name').notNullable();
        t.text('country').notNullable();
        t.uuid('owner_user_id').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
      });
      await knex.schema.createTable('firm_members', (t) => {
        t.uuid('firm_id').notNullable().references('id').inTable('firms').onDelete('CASCADE');
        // A user belongs to one firm at most.
        t.uuid('user_id').notNullable().unique();
        t.text('role').notNullable();
        t.text('email').notNullable();
        t.text('first_name').notNullable().defaultTo('');
        t.text('middle_name').notNullable().defaultTo('');
        t.text('last_name').notNullable().defaultTo('');
        t.uuid('default_organization_id');
        t.timestamp('joined_at', { useTz: true }).notNullable();
        t.primary(['firm_id', 'user_id']);
      });
      await knex.raw("alter table firm_members add constraint firm_members_role check (role in ('owner', 'admin', 'accountant'))");
      await knex.schema.createTable('firm_organizations', (t) => {
        t.uuid('firm_id').notNullable().references('id').inTable('firms').onDelete('CASCADE');
        t.uuid('organization_id').notNullable();
        t.text('name').notNullable();
        t.uuid('added_by_user_id');
        t.timestamp('added_at', { useTz: true }).notNullable();
        t.primary(['firm_id', 'organization_id']);
      });
      await knex.schema.createTable('firm_member_access', (t) => {
        t.uuid('firm_id').notNullable();
        t.uuid('user_id').notNullable();
        t.uuid('organization_id').notNullable();
        t.timestamp('granted_at', { useTz: true }).notNullable();
        t.primary(['firm_id', 'user_id', 'organization_id']);
        t.foreign(['firm_id', 'user_id']).references(['firm_id', 'user_id']).inTable('firm_members').onDelete('CASCADE');
        t.foreign(['firm_id', 'organization_id']).references(['firm_id', 'organization_id']).inTable('firm_organizations').onDelete('CASCADE');
      });
      await knex.schema.createTable('firm_invites', (t) => {
        t.uuid('id').primary();
        t.uuid('firm_id').notNullable().references('id').inTable('firms').onDelete('CASCADE');
        t.text('email').notNullable();
        t.text('role').notNullable();
        t.specificType('organization_ids', 'uuid[]').notNullable().defaultTo('{}');
        // SHA-256 of the mailed secret; the secret itself is never stored.
        t.binary('token_hash').notNullable().unique();
        t.text('status').notNullable().defaultTo('pending');
        t.text('first_name').notNullable().defaultTo('');
        t.text('middle_name').notNullable().defaultTo('');
        t.text('last_name').notNullable().defaultTo('');
        t.uuid('invited_by_user_id');
        t.uuid('accepted_user_id');
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.index(['firm_id', 'created_at']);
      });
      await knex.raw("alter table firm_invites add constraint firm_invites_status check (status in ('pending', 'verified', 'revoked'))");
      await enableFirmRls(knex, 'firms', undefined, 'id');
      await enableFirmRls(knex, 'firm_members', 'user_id = app_user_id()');
      await enableFirmRls(knex, 'firm_organizations');
      await enableFirmRls(knex, 'firm_member_access');
      await enableFirmRls(knex, 'firm_invites');
    },
    async down(knex) {
      for (const table of ['firm_invites', 'firm_member_access', 'firm_organizations', 'firm_members', 'firms']) await knex.schema.dropTableIfExists(table);
      await knex.raw('drop function if exists app_firm_id()');
    },
  },
  {
    // Firm access reaches identity (docs/decisions/0008-firm-access.md): every published access state takes
    // the next number of one sequence, under the firm row's lock, so a later change of a member's access always
    // carries a higher version than an earlier one, even after the member left and came back.
    name: '20261128100000_firm_access_versions',
    async up(knex) {
      await knex.raw('create sequence firm_access_version as bigint');
    },
    async down(knex) {
      await knex.raw('drop sequence if exists firm_access_version');
    },
  },
  {
    // The invite mail is a row of the chassis' mail outbox written in the invite's transaction (issue #16):
    // a rolled-back invite mails nothing, a committed one cannot lose its mail to a crash or a mail server down.
    name: '20261128110000_firm_mail_outbox',
    async up(knex) {
      await createMailOutboxTable(knex);
    },
    async down(knex) {
      await dropMailOutboxTable(knex);
    },
  },
];
