import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * Uploads (issue #19): one row per file kept in the object store. A row is written 'pending' before its object is
 * put and becomes 'stored' after; reads show stored rows only. The uploads sweeper settles pending rows a crash
 * left behind (object there with the row's MD5: stored; otherwise the row and any partial object are removed).
 * `(workspace_id, idempotency_key)` is unique: a retried request with the same key answers the first result.
 */
export const uploadsMigration: Migration = {
  name: '20261128070000_documents_uploads',
  async up(knex) {
    await knex.raw(`create table uploads (
      id uuid primary key,
      workspace_id uuid not null,
      upload_type text not null check (upload_type in ('file', 'receipt', 'bill', 'invoice')),
      status text not null check (status in ('pending', 'stored')),
      object_key text not null unique,
      file_name text not null,
      content_type text not null check (content_type in ('image/jpeg', 'image/png', 'application/pdf')),
      size_bytes bigint not null check (size_bytes > 0 and size_bytes <= 10485760),
      md5 text not null,
      merchant_name text,
      receipt_date date,
      amount_cents bigint check (amount_cents > 0),
      matched_transaction_id text,
      matched_transaction jsonb,
      matched_on timestamptz,
      matched_by text check (matched_by in ('auto', 'manual')),
      match_confidence numeric(4, 3),
      suggestions jsonb not null default '[]'::jsonb,
      read_status text not null default '' check (read_status in ('', 'read')),
      idempotency_key text,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      stored_at timestamptz,
      check ((status = 'stored') = (stored_at is not null)),
      check ((matched_transaction_id is null) = (matched_on is null))
    )`);
    await knex.raw('create unique index uploads_idempotency on uploads (workspace_id, idempotency_key) where idempotency_key is not null');
    await knex.raw("create index uploads_list on uploads (workspace_id, created_at desc, id) where status = 'stored'");
    await knex.raw('create index uploads_matched on uploads (workspace_id, matched_transaction_id) where matched_transaction_id is not null');
    await knex.raw("create index uploads_pending on uploads (created_at) where status = 'pending'");
    await enableTenantRls(knex, 'uploads');
  },
  async down(knex) {
    await knex.raw('drop table if exists uploads');
  },
};
