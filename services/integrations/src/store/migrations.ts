import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';
import { quickBooksMigrations } from '../quickbooks/migrations.js';

/** The integrations database: the platform's tenancy functions, outbox and inbox, then its own tables. */
export const integrationsMigrations: Migration[] = [
  ...platformMigrations,
  {
    // The generated skeleton's sample table (kept so databases that ran it migrate forward; dropped next).
    name: '20261128171941_integrations_records',
    async up(knex) {
      await knex.schema.createTable('integrations_records', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('title').notNullable();
        t.uuid('created_by');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['workspace_id', 'created_at']);
      });
      await enableTenantRls(knex, 'integrations_records');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('integrations_records');
    },
  },
  {
    name: '20261128180000_stripe_connections_and_sync',
    async up(knex) {
      await knex.schema.dropTableIfExists('integrations_records');
      // One Stripe account per workspace, and a Stripe account in one workspace at a time.
      await knex.schema.createTable('stripe_connections', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable().unique();
        t.text('stripe_account_id').notNullable().unique();
        // Sealed (AES-256-GCM, v1.<iv>.<tag>.<ciphertext>) under the key named beside it; never plain text.
        t.text('access_token').notNullable();
        t.text('access_token_key_id').notNullable();
        t.text('scope').notNullable();
        t.jsonb('account').notNullable();
        t.timestamp('connected_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('last_synced_at', { useTz: true });
      });
      await knex.schema.createTable('stripe_sync_jobs', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.uuid('connection_id').notNullable().references('id').inTable('stripe_connections').onDelete('CASCADE');
        t.text('status').notNullable();
        t.integer('attempts').notNullable().defaultTo(0);
        t.bigInteger('objects_synced').notNullable().defaultTo(0);
        t.text('error');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('run_after', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('started_at', { useTz: true });
        t.timestamp('finished_at', { useTz: true });
        t.index(['connection_id', 'created_at']);
      });
      // At most one unfinished job per connection: a second request joins it.
      await knex.raw("create unique index stripe_sync_jobs_one_pending on stripe_sync_jobs (connection_id) where status in ('waiting', 'active')");
      // Per object type: the newest `created` already synced (the next run lists from it) and, during a run,
      // its upper bound and the last id stored (Stripe's starting_after), committed with each page.
      await knex.schema.createTable('stripe_sync_cursors', (t) => {
        t.uuid('connection_id').notNullable().references('id').inTable('stripe_connections').onDelete('CASCADE');
        t.uuid('workspace_id').notNullable();
        t.text('object_type').notNullable();
        t.bigInteger('synced_through');
        t.bigInteger('run_upper');
        t.text('starting_after');
        t.primary(['connection_id', 'object_type']);
      });
      // The synced objects as Stripe sent them (validated first); `version` orders states of one object:
      // a webhook's event time, or the time a sync read it. An older state never replaces a newer one.
      await knex.schema.createTable('stripe_objects', (t) => {
        t.uuid('connection_id').notNullable().references('id').inTable('stripe_connections').onDelete('CASCADE');
        t.uuid('workspace_id').notNullable();
        t.text('stripe_id').notNullable();
        t.text('object_type').notNullable();
        t.bigInteger('created').notNullable();
        t.bigInteger('version').notNullable();
        t.jsonb('payload').notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['connection_id', 'stripe_id']);
        t.index(['connection_id', 'object_type', 'created']);
      });
      // Webhook inbox: each Stripe event id handled once, in the transaction of its effect.
      await knex.schema.createTable('stripe_events', (t) => {
        t.uuid('connection_id').notNullable().references('id').inTable('stripe_connections').onDelete('CASCADE');
        t.uuid('workspace_id').notNullable();
        t.text('event_id').notNullable();
        t.text('type').notNullable();
        t.bigInteger('created').notNullable();
        t.text('outcome').notNullable();
        t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['connection_id', 'event_id']);
      });
      for (const table of ['stripe_connections', 'stripe_sync_jobs', 'stripe_sync_cursors', 'stripe_objects', 'stripe_events'])
        await enableTenantRls(knex, table);
    },
    async down(knex) {
      for (const table of ['stripe_events', 'stripe_objects', 'stripe_sync_cursors', 'stripe_sync_jobs', 'stripe_connections'])
        await knex.schema.dropTableIfExists(table);
    },
  },
  {
    // Which balance transactions make up each payout (Stripe's GET /v1/balance_transactions?payout=), read once
    // per payout after the payouts sync: the payout's gross-to-net (decision 0043).
    name: '20261128210000_stripe_payout_members',
    async up(knex) {
      await knex.schema.createTable('stripe_payout_members', (t) => {
        t.uuid('connection_id').notNullable().references('id').inTable('stripe_connections').onDelete('CASCADE');
        t.uuid('workspace_id').notNullable();
        t.text('payout_id').notNullable();
        t.text('balance_transaction_id').notNullable();
        t.primary(['connection_id', 'payout_id', 'balance_transaction_id']);
      });
      // A payout whose members were read (also those with none besides its own transaction).
      await knex.schema.createTable('stripe_payouts_read', (t) => {
        t.uuid('connection_id').notNullable().references('id').inTable('stripe_connections').onDelete('CASCADE');
        t.uuid('workspace_id').notNullable();
        t.text('payout_id').notNullable();
        t.timestamp('read_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['connection_id', 'payout_id']);
      });
      for (const table of ['stripe_payout_members', 'stripe_payouts_read']) await enableTenantRls(knex, table);
    },
    async down(knex) {
      for (const table of ['stripe_payouts_read', 'stripe_payout_members']) await knex.schema.dropTableIfExists(table);
    },
  },
  {
    // Payout reconciliation (decision 0043): the deposits of the workspace's bank accounts (from banking's
    // bank_transaction events: only money in, posted) and each paid payout's link to the deposit it became.
    name: '20261128213000_stripe_payout_links',
    async up(knex) {
      await knex.schema.createTable('stripe_bank_deposits', (t) => {
        t.uuid('workspace_id').notNullable();
        t.uuid('transaction_id').notNullable();
        t.text('account_id').notNullable();
        t.text('date').notNullable();
        t.bigInteger('amount_cents').notNullable();
        t.text('description').notNullable().defaultTo('');
        t.boolean('pending').notNullable();
        t.boolean('removed').notNullable().defaultTo(false);
        t.bigInteger('version').notNullable();
        t.primary(['workspace_id', 'transaction_id']);
        t.index(['workspace_id', 'amount_cents']);
      });
      await knex.schema.createTable('stripe_payout_links', (t) => {
        t.uuid('connection_id').notNullable().references('id').inTable('stripe_connections').onDelete('CASCADE');
        t.uuid('workspace_id').notNullable();
        t.text('payout_id').notNullable();
        t.uuid('transaction_id').notNullable();
        t.bigInteger('amount_cents').notNullable();
        t.timestamp('matched_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['connection_id', 'payout_id']);
        t.unique(['workspace_id', 'transaction_id']);
      });
      for (const table of ['stripe_bank_deposits', 'stripe_payout_links']) await enableTenantRls(knex, table);
    },
    async down(knex) {
      for (const table of ['stripe_payout_links', 'stripe_bank_deposits']) await knex.schema.dropTableIfExists(table);
    },
  },
  ...quickBooksMigrations,
];
