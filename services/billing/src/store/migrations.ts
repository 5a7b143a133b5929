import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';

/** The billing database: the platform's tenancy functions, outbox and inbox, then its own tables. */
export const billingMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261128172038_billing_records',
    async up(knex) {
      await knex.schema.createTable('billing_records', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('title').notNullable();
        t.uuid('created_by');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['workspace_id', 'created_at']);
      });
      await enableTenantRls(knex, 'billing_records');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('billing_records');
    },
  },
  {
    // The generator's sample records go; customers, checkout sessions, subscriptions and the webhook inbox come.
    name: '20261128204500_billing_subscriptions',
    async up(knex) {
      await knex.schema.dropTableIfExists('billing_records');
      await knex.schema.createTable('billing_customers', (t) => {
        t.uuid('workspace_id').primary();
        t.text('stripe_customer_id').notNullable().unique();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await enableTenantRls(knex, 'billing_customers');
      await knex.schema.createTable('billing_checkout_sessions', (t) => {
        t.text('id').primary();
        t.uuid('workspace_id').notNullable().index();
        t.text('price_id').notNullable();
        t.uuid('created_by');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await enableTenantRls(knex, 'billing_checkout_sessions');
      await knex.schema.createTable('billing_subscriptions', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('stripe_subscription_id').notNullable().unique();
        t.text('stripe_customer_id').notNullable();
        t.text('price_id').notNullable();
        t.text('plan_id').notNullable();
        t.text('interval').notNullable();
        t.text('status').notNullable();
        t.timestamp('current_period_start', { useTz: true });
        t.timestamp('current_period_end', { useTz: true });
        t.timestamp('trial_end', { useTz: true });
        t.boolean('cancel_at_period_end').notNullable().defaultTo(false);
        t.timestamp('stripe_created', { useTz: true }).notNullable();
        t.jsonb('json').notNullable();
        t.timestamp('created_on', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('last_updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.index(['workspace_id', 'stripe_created']);
      });
      await knex.raw(
        `alter table billing_subscriptions add constraint billing_subscriptions_status_check check (status in ('trialing','active','incomplete','incomplete_expired','past_due','canceled','unpaid','paused'))`,
      );
      await enableTenantRls(knex, 'billing_subscriptions');
      // The webhook inbox: one row per Stripe event id, written in the transaction of its effect.
      await knex.schema.createTable('billing_stripe_events', (t) => {
        t.text('event_id').primary();
        t.text('type').notNullable();
        t.text('outcome').notNullable();
        t.uuid('workspace_id');
        t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await enableTenantRls(knex, 'billing_stripe_events');
    },
    async down(knex) {
      for (const table of ['billing_stripe_events', 'billing_subscriptions', 'billing_checkout_sessions', 'billing_customers'])
        await knex.schema.dropTableIfExists(table);
    },
  },
];
