import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * The vendors' bills and the customers' invoices as this service needs them for the parties' figures (decision
 * 0018-party-figures-from-documents): a read model fed by the documents service's documents.document_changed (the
 * state read back with GetDocument). One row per live bill or invoice; a deleted document's row goes. `version`
 * keeps the row from going back to an older state; the due date is stored, "overdue" is decided at each read.
 */
export const partyDocumentsMigration: Migration = {
  name: '20261128150000_parties_party_documents',
  async up(knex) {
    await knex.schema.createTable('party_documents', (t) => {
      t.uuid('workspace_id').notNullable();
      t.uuid('id').notNullable();
      t.text('kind').notNullable();
      t.uuid('party_id').notNullable();
      t.date('doc_date').notNullable();
      t.date('due_date');
      t.bigInteger('total_cents').notNullable();
      t.bigInteger('paid_cents').notNullable();
      t.boolean('voided').notNullable();
      t.bigInteger('version').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['workspace_id', 'id']);
      t.index(['workspace_id', 'party_id']);
    });
    await knex.raw("alter table party_documents add constraint party_documents_kind check (kind in ('bill', 'invoice'))");
    await enableTenantRls(knex, 'party_documents');
  },
  async down(knex) {
    await knex.schema.dropTableIfExists('party_documents');
  },
};
