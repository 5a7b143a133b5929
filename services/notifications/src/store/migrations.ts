import { createMailOutboxTable, dropMailOutboxTable, enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';

/** The notifications database: the platform's tenancy functions, outbox and inbox, then its own tables. */
export const notificationsMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261128180000_notifications',
    async up(knex) {
      // One row per user and thing to tell; `source_key` (the event and what in it) makes a repeat a no-op.
      await knex.schema.createTable('notifications', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.uuid('user_id').notNullable();
        t.text('type').notNullable();
        t.text('message').notNullable();
        t.text('redirect_url').notNullable();
        t.jsonb('data').notNullable().defaultTo('{}');
        t.text('source_key').notNullable();
        t.timestamp('read_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.unique(['workspace_id', 'user_id', 'source_key']);
        t.index(['workspace_id', 'user_id', 'created_at']);
      });
      await knex.raw('create index notifications_unread on notifications (workspace_id, user_id) where read_at is null');
      await enableTenantRls(knex, 'notifications');
      // The workspace's members from identity's member.changed (newest version wins): whom bank events concern, and
      // the address a mail goes to.
      await knex.schema.createTable('notification_members', (t) => {
        t.uuid('workspace_id').notNullable();
        t.uuid('user_id').notNullable();
        t.text('role').notNullable().defaultTo('');
        t.boolean('removed').notNullable().defaultTo(false);
        t.text('name').notNullable().defaultTo('');
        t.text('email').notNullable().defaultTo('');
        t.bigInteger('version').notNullable().defaultTo(0);
        t.primary(['workspace_id', 'user_id']);
      });
      await enableTenantRls(knex, 'notification_members');
      await knex.schema.createTable('notification_preferences', (t) => {
        t.uuid('workspace_id').notNullable();
        t.uuid('user_id').notNullable();
        t.boolean('email_comment_tagged').notNullable().defaultTo(true);
        t.boolean('email_reconnect_required').notNullable().defaultTo(true);
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['workspace_id', 'user_id']);
      });
      await enableTenantRls(knex, 'notification_preferences');
      // Per bank account: its name (bank_account.linked) and the last sync seen (bank_account.synced), so a sync that
      // brought nothing new tells nobody and an older sync arriving late is ignored.
      await knex.schema.createTable('notification_bank_accounts', (t) => {
        t.uuid('workspace_id').notNullable();
        t.uuid('account_id').notNullable();
        t.text('name').notNullable().defaultTo('');
        t.bigInteger('posted_count');
        t.bigInteger('synced_version').notNullable().defaultTo(0);
        t.primary(['workspace_id', 'account_id']);
      });
      await enableTenantRls(knex, 'notification_bank_accounts');
      await createMailOutboxTable(knex);
    },
    async down(knex) {
      await dropMailOutboxTable(knex);
      for (const table of ['notification_bank_accounts', 'notification_preferences', 'notification_members', 'notifications']) {
        await knex.schema.dropTableIfExists(table);
      }
    },
  },
];
