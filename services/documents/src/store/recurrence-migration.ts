import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * Recurrence (issue #18 item 6): `recurrences` is a template's schedule (the template is a bill, invoice or manual
 * journal of `documents`) and where the scheduler stands in it; `recurrence_occurrences` one row per date of a schedule
 * that was handled, with the document created for it. `unique (template_id, occurrence_date)` is the idempotency key:
 * however many scheduler replicas race, and after any restart, a date of a template gets one document at most.
 */
export const recurrenceMigration: Migration = {
  name: '20261128041000_documents_recurrence',
  async up(knex) {
    await knex.raw(`create table recurrences (
      document_id uuid primary key references documents(id),
      workspace_id uuid not null,
      kind text not null check (kind in ('bill', 'invoice', 'manual_entry')),
      start_date date not null,
      interval text not null check (interval in ('daily', 'weekly', 'monthly', 'quarterly', 'yearly')),
      end_type text not null check (end_type in ('never', 'date', 'count')),
      end_date date,
      occurrence_count int check (occurrence_count > 0),
      activity text not null check (activity in ('Active', 'Paused', 'Stopped')),
      not_before date,
      next_index int not null default 0,
      next_date date,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((end_type = 'date') = (end_date is not null)),
      check ((end_type = 'count') = (occurrence_count is not null))
    )`);
    await knex.raw("create index recurrences_due on recurrences (next_date) where activity = 'Active' and next_date is not null");
    await enableTenantRls(knex, 'recurrences');

    await knex.raw(`create table recurrence_occurrences (
      id uuid primary key,
      workspace_id uuid not null,
      template_id uuid not null references documents(id),
      occurrence_date date not null,
      occurrence_index int not null,
      -- Deferred: the date is claimed first, its document written after, in the same transaction.
      document_id uuid not null references documents(id) deferrable initially deferred,
      created_at timestamptz not null default now(),
      unique (template_id, occurrence_date)
    )`);
    await knex.raw('create index recurrence_occurrences_document on recurrence_occurrences (document_id)');
    await enableTenantRls(knex, 'recurrence_occurrences');
  },
  async down(knex) {
    await knex.raw('drop table if exists recurrence_occurrences');
    await knex.raw('drop table if exists recurrences');
  },
};
