import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';

export const identityMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261123090000_identity_core',
    async up(knex) {
      await knex.schema.createTable('users', (t) => {
        t.uuid('id').primary();
        t.text('email').notNullable().unique();
        t.text('first_name').notNullable().defaultTo('');
        t.text('middle_name').notNullable().defaultTo('');
        t.text('last_name').notNullable().defaultTo('');
        t.text('password_hash');
        t.boolean('is_verified').notNullable().defaultTo(false);
        t.text('user_type').notNullable().defaultTo('business');
        t.boolean('is_onboarded').notNullable().defaultTo(false);
        t.jsonb('profile');
        t.integer('consecutive_failures').notNullable().defaultTo(0);
        t.timestamp('locked_until', { useTz: true });
        t.timestamp('last_code_verified_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw("alter table users add constraint users_email_lowercase check (email = lower(email))");
      await knex.raw("alter table users add constraint users_type check (user_type in ('business', 'firm'))");

      await knex.schema.createTable('oauth_identities', (t) => {
        t.text('provider').notNullable();
        t.text('subject').notNullable();
        t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['provider', 'subject']);
      });

      await knex.schema.createTable('organizations', (t) => {
        t.uuid('id').primary();
        t.text('name').notNullable();
        t.uuid('owner_user_id').notNullable().references('users.id');
        t.text('type').notNullable().defaultTo('business');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });

      // A workspace is the tenant: its own id is what every other table calls workspace_id.
      await knex.schema.createTable('workspaces', (t) => {
        t.uuid('id').primary();
        t.uuid('organization_id').notNullable().references('organizations.id');
        t.text('name').notNullable();
        t.boolean('is_default').notNullable().defaultTo(false);
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw('create unique index workspaces_one_default on workspaces (organization_id) where is_default');

      await knex.schema.createTable('memberships', (t) => {
        t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('cascade');
        t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
        t.text('role').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['workspace_id', 'user_id']);
      });
      await knex.raw("alter table memberships add constraint memberships_role check (role in ('Owner', 'Accountant', 'Admin', 'Viewer'))");
      await knex.raw('create index memberships_user on memberships (user_id)');
      // A user sees their own memberships across workspaces (to list and pick a workspace).
      await enableTenantRls(knex, 'memberships', 'user_id = app_user_id()');

      await knex.schema.createTable('sessions', (t) => {
        t.uuid('id').primary();
        t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
        t.binary('token_hash').notNullable().unique();
        // pending: password checked, code not yet; active: signed in.
        t.text('kind').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('idle_expires_at', { useTz: true }).notNullable();
        t.timestamp('absolute_expires_at', { useTz: true }).notNullable();
        t.timestamp('revoked_at', { useTz: true });
      });
      await knex.raw("alter table sessions add constraint sessions_kind check (kind in ('pending', 'active'))");
      await knex.raw('create index sessions_user on sessions (user_id) where revoked_at is null');

      await knex.schema.createTable('one_time_codes', (t) => {
        t.uuid('id').primary(); // the methodId clients send back
        t.uuid('session_id').notNullable().references('sessions.id').onDelete('cascade');
        t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
        t.binary('code_hash').notNullable();
        t.integer('attempts').notNullable().defaultTo(0);
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('consumed_at', { useTz: true });
        t.timestamp('superseded_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw('create index one_time_codes_session on one_time_codes (session_id, created_at)');

      await knex.schema.createTable('password_resets', (t) => {
        t.uuid('id').primary();
        t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
        t.binary('token_hash').notNullable().unique();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('used_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });

      await knex.schema.createTable('login_failures', (t) => {
        t.bigIncrements('id');
        t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
        t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw('create index login_failures_user_at on login_failures (user_id, at)');
    },
    async down(knex) {
      for (const t of ['login_failures', 'password_resets', 'one_time_codes', 'sessions', 'memberships', 'workspaces', 'organizations', 'oauth_identities', 'users']) {
        await knex.schema.dropTableIfExists(t);
      }
    },
  },
];
