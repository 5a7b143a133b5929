import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * Vendor credits and credit memos (issue #17 item 5). `party_credits` is one row per credit (the document, its
 * current version and the ledger entry booking it); `party_credit_lines` its current line items (replaced by an
 * edit: the ledger keeps every posted version's lines, immutable); `party_credit_applications` is where bills
 * and invoices (issue #18) will record what they apply of a credit — empty until then, so appliedAmount is 0 and
 * runningBalance the total.
 */
export const creditsMigration: Migration = {
  name: '20261128130000_parties_credits',
  async up(knex) {
    await knex.raw(`create table party_credits (
      id uuid primary key,
      workspace_id uuid not null,
      kind text not null check (kind in ('vendor_credit', 'credit_memo')),
      vendor_id uuid references vendors(id),
      customer_id uuid references customers(id),
      payment_date date not null,
      description text not null default '',
      ref_no text not null default '',
      total_cents bigint not null check (total_cents > 0),
      version bigint not null default 1,
      journal_entry_id uuid,
      voided_at timestamptz,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((kind = 'vendor_credit' and vendor_id is not null and customer_id is null) or (kind = 'credit_memo' and customer_id is not null and vendor_id is null))
    )`);
    await knex.raw('create index party_credits_list on party_credits (workspace_id, kind, payment_date desc, id) where voided_at is null');
    await knex.raw('create index party_credits_vendor on party_credits (workspace_id, vendor_id) where voided_at is null');
    await knex.raw('create index party_credits_customer on party_credits (workspace_id, customer_id) where voided_at is null');
    await enableTenantRls(knex, 'party_credits');

    await knex.raw(`create table party_credit_lines (
      id uuid primary key,
      workspace_id uuid not null,
      credit_id uuid not null references party_credits(id),
      position int not null,
      description text not null default '',
      category_id uuid not null,
      amount_cents bigint not null check (amount_cents > 0),
      unique (credit_id, position)
    )`);
    await enableTenantRls(knex, 'party_credit_lines');

    await knex.raw(`create table party_credit_applications (
      id uuid primary key,
      workspace_id uuid not null,
      credit_id uuid not null references party_credits(id),
      document_type text not null check (document_type in ('bill', 'invoice')),
      document_id uuid not null,
      amount_cents bigint not null check (amount_cents > 0),
      created_at timestamptz not null default now(),
      unique (credit_id, document_type, document_id)
    )`);
    await knex.raw('create index party_credit_applications_credit on party_credit_applications (workspace_id, credit_id)');
    await enableTenantRls(knex, 'party_credit_applications');
  },
  async down(knex) {
    await knex.raw('drop table if exists party_credit_applications');
    await knex.raw('drop table if exists party_credit_lines');
    await knex.raw('drop table if exists party_credits');
  },
};
