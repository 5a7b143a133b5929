import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * The transaction drawer (issue #13): receipts (the file's bytes in the row), comments with tagged users,
 * and the workspace members the ledger has seen act (whom a comment may tag). Kept in the ledger until the
 * documents and notifications services exist; each table has the tenant's row-level security.
 */
export const drawerMigration: Migration = {
  name: '20261210100000_ledger_transaction_drawer',
  async up(knex) {
    await knex.schema.createTable('transaction_receipts', (t) => {
      t.uuid('id').primary();
      t.uuid('workspace_id').notNullable();
      t.uuid('transaction_id').notNullable().references('workspace_transactions.id');
      t.text('file_name').notNullable();
      t.text('content_type').notNullable();
      t.integer('size_bytes').notNullable();
      t.binary('sha256').notNullable();
      t.binary('content').notNullable();
      t.uuid('uploaded_by');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.raw(
      "alter table transaction_receipts add constraint transaction_receipts_type check (content_type in ('image/jpeg', 'image/png', 'application/pdf'))",
    );
    await knex.raw('alter table transaction_receipts add constraint transaction_receipts_size check (size_bytes > 0 and size_bytes = octet_length(content))');
    await knex.raw('create index transaction_receipts_list on transaction_receipts (workspace_id, transaction_id, id)');
    await enableTenantRls(knex, 'transaction_receipts');

    await knex.schema.createTable('transaction_comments', (t) => {
      t.uuid('id').primary();
      t.uuid('workspace_id').notNullable();
      t.uuid('transaction_id').notNullable().references('workspace_transactions.id');
      t.uuid('user_id').notNullable();
      t.text('comment').notNullable();
      t.specificType('tagged_user_ids', 'uuid[]').notNullable().defaultTo('{}');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.raw('alter table transaction_comments add constraint transaction_comments_text check (length(btrim(comment)) > 0)');
    await knex.raw('create index transaction_comments_list on transaction_comments (workspace_id, transaction_id, id)');
    await enableTenantRls(knex, 'transaction_comments');

    await knex.schema.createTable('workspace_members_seen', (t) => {
      t.uuid('workspace_id').notNullable();
      t.uuid('user_id').notNullable();
      t.text('name').notNullable().defaultTo('');
      t.text('email').notNullable().defaultTo('');
      t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['workspace_id', 'user_id']);
    });
    await enableTenantRls(knex, 'workspace_members_seen');
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('workspace_members_seen');
    await knex.schema.dropTableIfExists('transaction_comments');
    await knex.schema.dropTableIfExists('transaction_receipts');
  },
};
