import { enableTenantRls, type Migration } from '@ledgerline/platform';

/** The QuickBooks tables (decision 0045), appended to the integrations migrations. */
export const quickBooksMigrations: Migration[] = [
  {
    name: '20261128210000_quickbooks_connections',
    async up(knex) {
      // One QuickBooks company per workspace, and a company in one workspace at a time (no double sync).
      await knex.schema.createTable('quickbooks_connections', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable().unique();
        t.text('realm_id').notNullable().unique();
        // Sealed (AES-256-GCM, v1.<iv>.<tag>.<ciphertext>) under the key named beside each; the realm id and the
        // token's kind are the additional data. Never plain text.
        t.text('access_token').notNullable();
        t.text('access_token_key_id').notNullable();
        t.text('refresh_token').notNullable();
        t.text('refresh_token_key_id').notNullable();
        t.timestamp('access_expires_at', { useTz: true }).notNullable();
        t.timestamp('refresh_expires_at', { useTz: true }).notNullable();
        t.text('company_name').notNullable().defaultTo('');
        t.boolean('reconnect_required').notNullable().defaultTo(false);
        t.timestamp('connected_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('last_synced_at', { useTz: true });
      });
      // The state of each authorize link: the SHA-256 of the state, used once, within its lifetime.
      await knex.schema.createTable('quickbooks_oauth_states', (t) => {
        t.text('state_hash').primary();
        t.uuid('workspace_id').notNullable();
        t.uuid('user_id');
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.index(['workspace_id', 'expires_at']);
      });
      for (const table of ['quickbooks_connections', 'quickbooks_oauth_states']) await enableTenantRls(knex, table);
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('quickbooks_oauth_states');
      await knex.schema.dropTableIfExists('quickbooks_connections');
    },
  },
  {
    name: '20261128213000_quickbooks_sync',
    async up(knex) {
      // Who runs the company's sync: one worker at a time (a lease renewed per batch; a dead worker's lapses).
      await knex.schema.alterTable('quickbooks_connections', (t) => {
        t.text('sync_holder');
        t.timestamp('sync_lease_until', { useTz: true });
      });
      // Each of our entities pushed to QuickBooks: its QBO id and SyncToken, the fingerprint of what was pushed,
      // and its state. `pending` is written (committed) before the push, so a run resumed after a crash looks the
      // entity up in QuickBooks by its key (Name, DisplayName, DocNumber) instead of creating it twice.
      await knex.schema.createTable('quickbooks_entities', (t) => {
        t.uuid('connection_id').notNullable().references('id').inTable('quickbooks_connections').onDelete('CASCADE');
        t.uuid('workspace_id').notNullable();
        t.text('entity_type').notNullable();
        t.text('entity_id').notNullable();
        t.text('status').notNullable();
        t.text('qbo_type');
        t.text('qbo_id');
        t.text('sync_token');
        t.text('lookup_key');
        t.text('fingerprint');
        t.text('error');
        t.uuid('job_id');
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['connection_id', 'entity_type', 'entity_id']);
        t.index(['connection_id', 'job_id']);
      });
      await knex.schema.createTable('quickbooks_sync_jobs', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.uuid('connection_id').notNullable().references('id').inTable('quickbooks_connections').onDelete('CASCADE');
        // The spec's queue: 'accounting-package sync' (push) or 'mapper and reverse sync' (import).
        t.text('queue').notNullable();
        // bulk (every un-synced entity), transactions (the listed ones, sync or unsync), reverse (import).
        t.text('kind').notNullable();
        t.jsonb('request').notNullable().defaultTo('{}');
        t.text('status').notNullable();
        t.integer('attempts').notNullable().defaultTo(0);
        t.integer('total').notNullable().defaultTo(0);
        t.integer('done').notNullable().defaultTo(0);
        t.jsonb('result');
        t.text('error');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('started_at', { useTz: true });
        t.timestamp('finished_at', { useTz: true });
        t.index(['connection_id', 'created_at']);
      });
      // At most one unfinished bulk sync per company: a second request joins it.
      await knex.raw(
        "create unique index quickbooks_sync_jobs_one_bulk on quickbooks_sync_jobs (connection_id, kind) where status in ('waiting', 'active') and kind in ('bulk', 'reverse')",
      );
      for (const table of ['quickbooks_entities', 'quickbooks_sync_jobs']) await enableTenantRls(knex, table);
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('quickbooks_sync_jobs');
      await knex.schema.dropTableIfExists('quickbooks_entities');
      await knex.schema.alterTable('quickbooks_connections', (t) => {
        t.dropColumn('sync_holder');
        t.dropColumn('sync_lease_until');
      });
    },
  },
];
