import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';
import { recurrenceMigration } from './recurrence-migration.js';
import { connectionMigrations } from './migrations-connections.js';
import { uploadsMigration } from './uploads-migration.js';
import { draftsMigration } from './drafts.js';
import { fixedAssetsMigration } from './fixed-assets-migration.js';
import { writtenNameMigration } from './written-names.js';
import { bulkUploadMigration, bulkUploadReadsMigration } from './bulk-upload.js';

/**
 * The documents database: the platform's tenancy functions, outbox and inbox, then its own tables.
 * `documents` is one row per bill, invoice or manual journal (its current version and the ledger entry booking it);
 * `document_lines` its current line items (replaced by a PUT: the ledger keeps every posted version's lines,
 * immutable). A void keeps the row (status Voided); a delete keeps it too, marked deleted, so an id never comes back.
 */
export const documentsMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261128004012_documents',
    async up(knex) {
      await knex.raw(`create table documents (
        id uuid primary key,
        workspace_id uuid not null,
        kind text not null check (kind in ('bill', 'invoice', 'manual_entry')),
        doc_date date not null,
        due_date date,
        party_id uuid,
        party_name text not null default '',
        reference text not null default '',
        description text not null default '',
        company_name text not null default '',
        company_address text not null default '',
        total_cents bigint not null check (total_cents > 0),
        source text not null default 'manual',
        version bigint not null default 1,
        journal_entry_id uuid,
        voided_at timestamptz,
        deleted_at timestamptz,
        created_by uuid,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((kind = 'manual_entry') = (party_id is null))
      )`);
      await knex.raw('create index documents_list on documents (workspace_id, kind, doc_date desc, id) where deleted_at is null');
      await knex.raw('create index documents_party on documents (workspace_id, kind, party_id) where deleted_at is null');
      await enableTenantRls(knex, 'documents');

      await knex.raw(`create table document_lines (
        id uuid primary key,
        workspace_id uuid not null,
        document_id uuid not null references documents(id),
        position int not null,
        service_name text not null default '',
        category_id uuid not null,
        amount_cents bigint not null check (amount_cents > 0),
        quantity numeric,
        rate_cents bigint,
        direction text check (direction in ('debit', 'credit')),
        unique (document_id, position)
      )`);
      await enableTenantRls(knex, 'document_lines');
    },
    async down(knex) {
      await knex.raw('drop table if exists document_lines');
      await knex.raw('drop table if exists documents');
    },
  },
  {
    // Payments (issue #18 item 4): the bank transactions paying a bill or invoice, with what each pays. The ledger
    // holds the link on the transaction (entity_type / entity_id) and its re-booking against AP / AR.
    name: '20261128011500_documents_payments',
    async up(knex) {
      await knex.raw(`create table document_payments (
        id uuid primary key,
        workspace_id uuid not null,
        document_id uuid not null references documents(id),
        position int not null,
        transaction_id uuid not null,
        amount_cents bigint not null check (amount_cents > 0),
        unique (document_id, position),
        unique (workspace_id, transaction_id)
      )`);
      await enableTenantRls(knex, 'document_payments');
    },
    async down(knex) {
      await knex.raw('drop table if exists document_payments');
    },
  },
  recurrenceMigration,
  ...connectionMigrations,
  uploadsMigration,
  draftsMigration,
  fixedAssetsMigration,
  writtenNameMigration,
  bulkUploadMigration,
  bulkUploadReadsMigration,
];
