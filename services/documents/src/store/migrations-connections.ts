import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * Payments other than bank transactions (issue #18 item 4; decision 0020): one row per (bill or invoice, payer) with
 * what the payer pays of it. The payer is a manual journal of this service, or a vendor credit / credit memo of the
 * parties service. A bill's or invoice's PUT replaces its rows of manual journals and credits; a manual journal's PUT
 * replaces its own rows (the bills and invoices it pays). Applications post nothing to the ledger.
 */
export const connectionMigrations: Migration[] = [
  {
    name: '20261128041500_documents_applications',
    async up(knex) {
      await knex.raw(`create table document_applications (
        id uuid primary key,
        workspace_id uuid not null,
        document_id uuid not null references documents(id),
        payer_kind text not null check (payer_kind in ('manual_entry', 'vendor_credit', 'credit_memo')),
        payer_id uuid not null,
        amount_cents bigint not null check (amount_cents > 0),
        position int not null,
        unique (document_id, payer_kind, payer_id)
      )`);
      await knex.raw('create index document_applications_payer on document_applications (workspace_id, payer_id)');
      await enableTenantRls(knex, 'document_applications');
    },
    async down(knex) {
      await knex.raw('drop table if exists document_applications');
    },
  },
];
