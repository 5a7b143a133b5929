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
];
