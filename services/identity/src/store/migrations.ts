import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';
import { writeEveryMemberEvent } from './member-events.js';

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
      await knex.raw('alter table users add constraint users_email_lowercase check (email = lower(email))');
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
      for (const t of [
        'login_failures',
        'password_resets',
        'one_time_codes',
        'sessions',
        'memberships',
        'workspaces',
        'organizations',
        'oauth_identities',
        'users',
      ]) {
        await knex.schema.dropTableIfExists(t);
      }
    },
  },
  {
    // Trusted devices (a code was checked there), the "always ask for the code" setting, and sign-in
    // throttling keyed by the address typed, so a known and an unknown email are locked alike.
    name: '20261125150000_identity_devices_and_throttle',
    async up(knex) {
      await knex.schema.alterTable('users', (t) => {
        t.boolean('require_code_always').notNullable().defaultTo(false);
      });
      await knex.schema.createTable('trusted_devices', (t) => {
        t.uuid('id').primary();
        t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
        // SHA-256 of the browser's device token; the token itself is never stored.
        t.binary('token_hash').notNullable();
        t.timestamp('verified_at', { useTz: true }).notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.unique(['user_id', 'token_hash']);
      });
      await knex.schema.createTable('login_throttle', (t) => {
        // SHA-256 of the lower-cased email: the table holds no address in plain text.
        t.binary('email_hash').primary();
        t.integer('consecutive_failures').notNullable().defaultTo(0);
        t.timestamp('locked_until', { useTz: true });
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.schema.createTable('login_throttle_failures', (t) => {
        t.bigIncrements('id');
        t.binary('email_hash').notNullable();
        t.timestamp('at', { useTz: true }).notNullable();
      });
      await knex.raw('create index login_throttle_failures_at on login_throttle_failures (email_hash, at)');
    },
    async down(knex) {
      for (const t of ['login_throttle_failures', 'login_throttle', 'trusted_devices']) await knex.schema.dropTableIfExists(t);
      await knex.schema.alterTable('users', (t) => t.dropColumn('require_code_always'));
    },
  },
  {
    // Teams: workspace details (spec §3 "Workspace (entity)") and invites. An invite belongs to an
    // organization and names the workspaces it gives access to; its token is stored as a SHA-256 digest.
    name: '20261127180000_identity_teams',
    async up(knex) {
      await knex.schema.alterTable('workspaces', (t) => {
        t.text('address').notNullable().defaultTo('');
        t.text('email').notNullable().defaultTo('');
        t.text('bank_name').notNullable().defaultTo('');
        t.text('account_number').notNullable().defaultTo('');
        t.text('bank_address').notNullable().defaultTo('');
        t.text('account_type').notNullable().defaultTo('');
        t.integer('max_team_size');
      });
      await knex.raw('create index workspaces_organization on workspaces (organization_id, created_at)');
      await knex.schema.createTable('invites', (t) => {
        t.uuid('id').primary();
        t.uuid('organization_id').notNullable().references('organizations.id').onDelete('cascade');
        t.text('email').notNullable();
        t.text('role').notNullable();
        t.text('first_name').notNullable().defaultTo('');
        t.text('middle_name').notNullable().defaultTo('');
        t.text('last_name').notNullable().defaultTo('');
        t.specificType('workspace_ids', 'uuid[]').notNullable();
        t.binary('token_hash').notNullable().unique();
        // pending, verified (accepted) or revoked.
        t.text('status').notNullable().defaultTo('pending');
        t.uuid('invited_by_user_id').references('users.id').onDelete('set null');
        t.uuid('accepted_user_id').references('users.id').onDelete('set null');
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw("alter table invites add constraint invites_status check (status in ('pending', 'verified', 'revoked'))");
      await knex.raw("alter table invites add constraint invites_role check (role in ('Accountant', 'Admin', 'Viewer'))");
      await knex.raw('alter table invites add constraint invites_email_lowercase check (email = lower(email))');
      // One open invite per address and organization: sending again replaces it.
      await knex.raw("create unique index invites_one_pending on invites (organization_id, email) where status = 'pending'");
      // The team screens list the members of every workspace of one organization. The use case sets
      // app.organization_id only after checking the caller belongs to that organization.
      await knex.raw(`create or replace function app_organization_id() returns uuid language sql stable as
        $$ select nullif(current_setting('app.organization_id', true), '')::uuid $$`);
      await knex.raw('drop policy tenant_isolation on memberships');
      const condition =
        'workspace_id = app_workspace_id() or app_is_system() or user_id = app_user_id() or workspace_id in (select w.id from workspaces w where w.organization_id = app_organization_id())';
      await knex.raw(`create policy tenant_isolation on memberships using (${condition}) with check (${condition})`);
    },
    async down(knex) {
      await knex.raw('drop policy tenant_isolation on memberships');
      const condition = 'workspace_id = app_workspace_id() or app_is_system() or (user_id = app_user_id())';
      await knex.raw(`create policy tenant_isolation on memberships using (${condition}) with check (${condition})`);
      await knex.raw('drop function if exists app_organization_id()');
      await knex.schema.dropTableIfExists('invites');
      await knex.raw('drop index if exists workspaces_organization');
      await knex.schema.alterTable('workspaces', (t) => {
        for (const c of ['address', 'email', 'bank_name', 'account_number', 'bank_address', 'account_type', 'max_team_size']) t.dropColumn(c);
      });
    },
  },
  {
    // Issue #15: the sign-up answer for a taken email (a decoy session token) keeps the state a real
    // pending sign-in has (which code is current, its tries, when it and the attempt expire), so its
    // answers lock and expire exactly like a real one's. Pruned when the attempt would have expired.
    // Failed-login rows are pruned by time: an index on `at` alone.
    name: '20261127190000_identity_decoy_challenges',
    async up(knex) {
      await knex.schema.createTable('decoy_challenges', (t) => {
        t.binary('token_hash').primary();
        t.uuid('method_id').notNullable();
        t.integer('attempts').notNullable().defaultTo(0);
        t.integer('sends').notNullable().defaultTo(1);
        t.timestamp('last_sent_at', { useTz: true }).notNullable();
        t.timestamp('code_expires_at', { useTz: true }).notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
      });
      await knex.raw('create index decoy_challenges_expires on decoy_challenges (expires_at)');
      await knex.raw('create index login_throttle_failures_at_only on login_throttle_failures (at)');
    },
    async down(knex) {
      await knex.raw('drop index if exists login_throttle_failures_at_only');
      await knex.schema.dropTableIfExists('decoy_challenges');
    },
  },
  {
    // Issue #15 item 6: mail is written in the transaction of the flow that decides to send it and sent by
    // a job (src/mail/outbox.ts). No workspace_id: mail is the user's, not a tenant's (no row-level security).
    // A sent or abandoned row keeps no body (codes and links are wiped) and is pruned after a day.
    name: '20261127200000_identity_mail_outbox',
    async up(knex) {
      await knex.schema.createTable('mail_outbox', (t) => {
        t.uuid('id').primary();
        t.text('to').notNullable();
        t.text('subject').notNullable();
        t.text('text').notNullable();
        t.text('html').notNullable();
        // code, reset, account-exists, invite, password-changed
        t.text('kind').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.integer('attempts').notNullable().defaultTo(0);
        // Null once sent or given up; otherwise when the job may (re)try it (a claim moves it one lease ahead).
        t.timestamp('next_attempt_at', { useTz: true }).defaultTo(knex.fn.now());
        t.timestamp('sent_at', { useTz: true });
        t.text('last_error');
      });
      await knex.raw('create index mail_outbox_due on mail_outbox (next_attempt_at) where sent_at is null and next_attempt_at is not null');
      await knex.raw('create index mail_outbox_created on mail_outbox (created_at)');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('mail_outbox');
    },
  },
  {
    // Firm access (docs/decisions/0008-firm-access.md): the client organizations a firm lets each of its members
    // open, as the firm service last decided (SetFirmAccess, or its firm.access_changed event), and the version
    // of that decision per firm member, kept when the set is empty so an older state arriving late is ignored.
    // A grant opens every workspace of the organization, those made later too; row-level security like
    // memberships: the user's own rows, or those of the organization the transaction acts in.
    name: '20261128100000_identity_firm_grants',
    async up(knex) {
      await knex.schema.createTable('firm_access_versions', (t) => {
        t.uuid('firm_id').notNullable();
        t.uuid('user_id').notNullable();
        t.bigInteger('version').notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.primary(['firm_id', 'user_id']);
      });
      await knex.schema.createTable('organization_grants', (t) => {
        t.uuid('firm_id').notNullable();
        t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
        t.uuid('organization_id').notNullable().references('organizations.id').onDelete('cascade');
        t.text('role').notNullable();
        t.bigInteger('version').notNullable();
        t.timestamp('granted_at', { useTz: true }).notNullable();
        t.primary(['firm_id', 'user_id', 'organization_id']);
      });
      await knex.raw("alter table organization_grants add constraint organization_grants_role check (role in ('Admin', 'Accountant'))");
      await knex.raw('create index organization_grants_user on organization_grants (user_id)');
      await knex.raw('create index organization_grants_organization on organization_grants (organization_id)');
      for (const [table, condition] of [
        ['firm_access_versions', 'user_id = app_user_id() or app_is_system()'],
        ['organization_grants', 'user_id = app_user_id() or app_is_system() or organization_id = app_organization_id()'],
      ] as const) {
        await knex.raw('alter table ?? enable row level security', [table]);
        await knex.raw('alter table ?? force row level security', [table]);
        await knex.raw(`create policy grant_isolation on ?? using (${condition}) with check (${condition})`, [table]);
      }
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('organization_grants');
      await knex.schema.dropTableIfExists('firm_access_versions');
    },
  },
  {
    // member.changed carries the user's name and email and a version (decision 0036), and is written wherever access
    // starts, changes or ends and when a name changes. The version is this sequence's. The backfill: one event for
    // every user and workspace with access now, written to the outbox here (the relay publishes it once the service
    // runs), so the consumers that keep a workspace's members (the ledger's) know those who joined before.
    name: '20261215100000_identity_member_events',
    async up(knex) {
      // Started at the clock in microseconds: made again (down, then up) it still counts past every version written before.
      await knex.raw(`create sequence member_event_version start with ${Date.now() * 1000}`);
      await knex.transaction(async (trx) => {
        // The owner runs migrations; row-level security is forced for it too, and honours app.system for it.
        await trx.raw("select set_config('app.system', 'on', true)");
        await writeEveryMemberEvent(trx);
        await trx.raw("select set_config('app.system', '', true)");
      });
    },
    async down(knex) {
      await knex.raw('drop sequence if exists member_event_version');
    },
  },
  {
    // Issue #21 item 6: identity's copy of each workspace's user limit, from billing.plan_changed (decision 0044).
    name: '20261216100000_identity_workspace_plans',
    async up(knex) {
      await knex.schema.createTable('workspace_plans', (t) => {
        t.uuid('workspace_id').primary();
        t.text('plan_id').notNullable();
        t.text('plan_name').notNullable();
        // -1: unlimited.
        t.integer('users').notNullable();
        t.timestamp('changed_at', { useTz: true }).notNullable();
      });
      // A member of the workspace reads its plan (an invite to several workspaces checks each).
      await enableTenantRls(knex, 'workspace_plans', 'workspace_id in (select workspace_id from memberships where user_id = app_user_id())');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('workspace_plans');
    },
  },
];
