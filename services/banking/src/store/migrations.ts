import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';

const TENANT_TABLES = ['plaid_items', 'bank_accounts', 'bank_transactions', 'sync_jobs'] as const;

export const bankingMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261123110000_banking_core',
    async up(knex) {
      // A Plaid item: one login at one institution, holding one or more accounts, synced by one cursor.
      await knex.schema.createTable('plaid_items', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('item_id').notNullable().unique();
        t.text('access_token').notNullable();
        t.text('institution_id').notNullable().defaultTo('');
        t.text('institution_name').notNullable().defaultTo('');
        // The /transactions/sync cursor of the last committed page ('' before the first).
        t.text('cursor').notNullable().defaultTo('');
        // The cursor that began the current pagination loop (the last one answered with has_more false):
        // where paging restarts after TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION.
        t.text('loop_cursor').notNullable().defaultTo('');
        // active, login_required, removed.
        t.text('status').notNullable().defaultTo('active');
        t.timestamp('last_synced_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw("alter table plaid_items add constraint plaid_items_status check (status in ('active', 'login_required', 'removed'))");
      await knex.raw('create index plaid_items_workspace on plaid_items (workspace_id)');

      await knex.schema.createTable('bank_accounts', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.uuid('plaid_item_id').references('plaid_items.id');
        t.text('vendor_account_id').notNullable();
        t.text('name').notNullable();
        t.text('official_name').notNullable().defaultTo('');
        t.text('mask').notNullable().defaultTo('');
        t.text('type').notNullable();
        t.text('subtype').notNullable().defaultTo('');
        t.text('institution_id').notNullable().defaultTo('');
        t.text('institution_name').notNullable().defaultTo('');
        t.text('institution_logo').notNullable().defaultTo('');
        t.text('iso_currency_code').notNullable().defaultTo('USD');
        t.bigInteger('available_balance_cents');
        t.bigInteger('current_balance_cents');
        t.boolean('active').notNullable().defaultTo(true);
        t.boolean('reconnect_required').notNullable().defaultTo(false);
        t.text('source').notNullable().defaultTo('plaid');
        t.timestamp('last_synced_at', { useTz: true });
        t.uuid('merged_into_account_id');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('removed_at', { useTz: true });
      });
      await knex.raw("alter table bank_accounts add constraint bank_accounts_type check (type in ('depository', 'credit', 'loan', 'investment', 'other'))");
      await knex.raw("alter table bank_accounts add constraint bank_accounts_source check (source in ('plaid', 'quickbook', 'quickbook-plaid'))");
      // One live account per provider account and workspace (a removed one may be linked again).
      await knex.raw('create unique index bank_accounts_vendor_live on bank_accounts (workspace_id, vendor_account_id) where active');
      await knex.raw('create index bank_accounts_item on bank_accounts (plaid_item_id)');

      await knex.schema.createTable('bank_transactions', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.uuid('account_id').notNullable().references('bank_accounts.id');
        t.text('external_id').notNullable();
        t.bigInteger('amount_cents').notNullable();
        t.text('iso_currency_code').notNullable();
        t.date('date').notNullable();
        t.date('authorized_date');
        t.text('name').notNullable().defaultTo('');
        t.text('merchant_name').notNullable().defaultTo('');
        t.boolean('pending').notNullable().defaultTo(false);
        t.text('provider_category').notNullable().defaultTo('');
        t.bigInteger('version').notNullable().defaultTo(1);
        t.timestamp('removed_at', { useTz: true });
        // provider (Plaid withdrew it) or merge (dropped or moved by an account merge).
        t.text('removed_reason');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        // The key that makes a replayed page or a redelivered job a no-op (RELIABILITY 5, 12).
        t.unique(['workspace_id', 'account_id', 'external_id']);
      });
      await knex.raw('create index bank_transactions_external on bank_transactions (workspace_id, external_id)');
      await knex.raw('create index bank_transactions_account_date on bank_transactions (account_id, date) where removed_at is null');

      await knex.schema.createTable('sync_jobs', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.bigIncrements('seq', { primaryKey: false });
        t.uuid('plaid_item_id').notNullable().references('plaid_items.id');
        // The accounts of the item when the job was made; data.accountId is the first (or the requested one).
        t.specificType('account_ids', 'uuid[]').notNullable();
        t.uuid('account_id').notNullable();
        t.text('type').notNullable().defaultTo('transaction-sync');
        // waiting, delayed, active, completed, failed.
        t.text('status').notNullable().defaultTo('waiting');
        t.text('reason').notNullable();
        t.uuid('request_id').notNullable();
        t.integer('attempts').notNullable().defaultTo(0);
        t.integer('transaction_pushed').notNullable().defaultTo(0);
        t.integer('total_transactions').notNullable().defaultTo(0);
        t.text('failed_reason');
        t.timestamp('run_after', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('lease_expires_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('started_at', { useTz: true });
        t.timestamp('finished_at', { useTz: true });
      });
      await knex.raw("alter table sync_jobs add constraint sync_jobs_status check (status in ('waiting', 'delayed', 'active', 'completed', 'failed'))");
      // At most one job per item not yet started: later requests join it.
      await knex.raw("create unique index sync_jobs_one_pending on sync_jobs (plaid_item_id) where status in ('waiting', 'delayed')");
      await knex.raw('create index sync_jobs_workspace on sync_jobs (workspace_id, seq desc)');

      for (const table of TENANT_TABLES) await enableTenantRls(knex, table);

      // Verified webhook deliveries (system data, no tenant): a replayed signed request is a no-op.
      await knex.schema.createTable('webhook_deliveries', (t) => {
        t.binary('token_sha256').primary();
        t.text('webhook_type').notNullable();
        t.text('webhook_code').notNullable();
        t.text('item_id').notNullable().defaultTo('');
        t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('webhook_deliveries');
      for (const t of ['sync_jobs', 'bank_transactions', 'bank_accounts', 'plaid_items']) await knex.schema.dropTableIfExists(t);
    },
  },
  {
    // Issue #12: each completed sync publishes bank_account.synced per live account with a version that
    // only grows (the number of syncs that completed for the account), so the ledger ignores an older one.
    name: '20261201100000_banking_account_synced_version',
    async up(knex) {
      await knex.raw('alter table bank_accounts add column synced_version bigint not null default 0');
    },
    async down(knex) {
      await knex.raw('alter table bank_accounts drop column synced_version');
    },
  },
  {
    // Issue #15: Plaid access tokens are sealed with AES-256-GCM; the id of the key sits beside the
    // ciphertext. Rows from before keep a null key id (plain text) until the service, which holds the key
    // (this migration's Job does not), seals them at start (usecases/tokens.ts, resealTokens).
    name: '20261201110000_banking_sealed_access_tokens',
    async up(knex) {
      await knex.raw('alter table plaid_items add column access_token_key_id text');
    },
    async down(knex) {
      await knex.raw('alter table plaid_items drop column access_token_key_id');
    },
  },
  {
    // Issue #21 item 6: banking's copy of each workspace's plan limits, from billing.plan_changed (decision 0044).
    name: '20261128210000_banking_workspace_plans',
    async up(knex) {
      await knex.schema.createTable('workspace_plans', (t) => {
        t.uuid('workspace_id').primary();
        t.text('plan_id').notNullable();
        t.text('plan_name').notNullable();
        // -1: unlimited.
        t.integer('bank_accounts').notNullable();
        t.timestamp('changed_at', { useTz: true }).notNullable();
      });
      await enableTenantRls(knex, 'workspace_plans');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('workspace_plans');
    },
  },
];
