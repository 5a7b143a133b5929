import { newId, type Knex } from '@ledgerline/platform';
import type { DocumentKind } from '../domain/documents.js';
import type { Activity, EndType, Interval, Schedule } from '../domain/recurrence.js';

export interface RecurrenceRow {
  document_id: string;
  workspace_id: string;
  kind: DocumentKind;
  start_date: string;
  interval: Interval;
  end_type: EndType;
  end_date: string | null;
  occurrence_count: number | null;
  activity: Activity;
  not_before: string | null;
  next_index: number;
  next_date: string | null;
  created_by: string | null;
}

export interface OccurrenceRow {
  template_id: string;
  occurrence_date: string;
  occurrence_index: number;
  document_id: string;
}

const SELECT = `select document_id, workspace_id, kind, to_char(start_date, 'YYYY-MM-DD') as start_date, interval, end_type, to_char(end_date, 'YYYY-MM-DD') as end_date,
    occurrence_count, activity, to_char(not_before, 'YYYY-MM-DD') as not_before, next_index, to_char(next_date, 'YYYY-MM-DD') as next_date, created_by
  from recurrences`;

export const scheduleOf = (r: RecurrenceRow): Schedule => ({
  startDate: r.start_date,
  interval: r.interval,
  endDate: r.end_date ?? '',
  count: r.occurrence_count ?? 0,
});

/** The schedules of these templates (those that ever recurred). */
export async function recurrencesOf(trx: Knex.Transaction, ids: readonly string[]): Promise<Map<string, RecurrenceRow>> {
  if (ids.length === 0) return new Map();
  const rows = (await trx.raw(`${SELECT} where document_id = any(?::uuid[])`, [[...ids]])).rows as RecurrenceRow[];
  return new Map(rows.map((r) => [r.document_id, r]));
}

/** A template's schedule, locked for its change (the scheduler waits for it, or skips it when it locks with skipLocked). */
export async function lockRecurrence(trx: Knex.Transaction, id: string, skipLocked = false): Promise<RecurrenceRow | undefined> {
  return (await trx.raw(`${SELECT} where document_id = ? for update${skipLocked ? ' skip locked' : ''}`, [id])).rows[0] as RecurrenceRow | undefined;
}

export interface RecurrenceWrite {
  documentId: string;
  workspaceId: string;
  kind: DocumentKind;
  schedule: Schedule;
  endType: EndType;
  activity: Activity;
  notBefore: string | null;
  nextDate: string | null;
  createdBy: string | null;
}

/** Sets (or replaces) a template's schedule; the scheduler starts again from its first date (dates already handled stay handled). */
export async function saveRecurrence(trx: Knex.Transaction, w: RecurrenceWrite): Promise<void> {
  const row = {
    document_id: w.documentId,
    workspace_id: w.workspaceId,
    kind: w.kind,
    start_date: w.schedule.startDate,
    interval: w.schedule.interval,
    end_type: w.endType,
    end_date: w.schedule.endDate || null,
    occurrence_count: w.schedule.count || null,
    activity: w.activity,
    not_before: w.notBefore,
    next_index: 0,
    next_date: w.nextDate,
    created_by: w.createdBy,
  };
  await trx('recurrences')
    .insert(row)
    .onConflict('document_id')
    .merge({ ...row, created_by: undefined, updated_at: trx.fn.now() });
}

export async function setActivity(trx: Knex.Transaction, id: string, activity: Activity): Promise<void> {
  await trx('recurrences').where({ document_id: id }).update({ activity, updated_at: trx.fn.now() });
}

/** Where the scheduler stands: the next index of the schedule to handle and its date (null: the schedule is over). */
export async function advanceRecurrence(trx: Knex.Transaction, id: string, nextIndex: number, nextDate: string | null): Promise<void> {
  await trx('recurrences').where({ document_id: id }).update({ next_index: nextIndex, next_date: nextDate, updated_at: trx.fn.now() });
}

/** Active templates with a date due by `today`, of every workspace (the system role's pool). */
export async function dueTemplates(
  trx: Knex.Transaction,
  today: string,
  limit: number,
): Promise<{ document_id: string; workspace_id: string; created_by: string | null }[]> {
  return (
    await trx.raw(
      "select document_id, workspace_id, created_by from recurrences where activity = 'Active' and next_date <= ? order by next_date, document_id limit ?",
      [today, limit],
    )
  ).rows as { document_id: string; workspace_id: string; created_by: string | null }[];
}

/**
 * Claims a date of a template: the idempotency key (template, date) is unique, so of two replicas racing (or a replay
 * after a restart) one inserts and the other gets false.
 */
export async function claimOccurrence(
  trx: Knex.Transaction,
  o: { workspaceId: string; templateId: string; date: string; index: number; documentId: string },
): Promise<boolean> {
  const rows = (
    await trx.raw(
      `insert into recurrence_occurrences (id, workspace_id, template_id, occurrence_date, occurrence_index, document_id) values (?, ?, ?, ?, ?, ?)
       on conflict (template_id, occurrence_date) do nothing returning id`,
      [newId(), o.workspaceId, o.templateId, o.date, o.index, o.documentId],
    )
  ).rows as unknown[];
  return rows.length === 1;
}

export async function occurrencesOf(trx: Knex.Transaction, templateIds: readonly string[]): Promise<Map<string, OccurrenceRow[]>> {
  const out = new Map<string, OccurrenceRow[]>();
  if (templateIds.length === 0) return out;
  const rows = (
    await trx.raw(
      "select template_id, to_char(occurrence_date, 'YYYY-MM-DD') as occurrence_date, occurrence_index, document_id from recurrence_occurrences where template_id = any(?::uuid[]) order by template_id, occurrence_date",
      [[...templateIds]],
    )
  ).rows as OccurrenceRow[];
  for (const r of rows) out.set(r.template_id, [...(out.get(r.template_id) ?? []), r]);
  return out;
}

/** The template each of these documents was created from, when a recurrence created it. */
export async function templatesOfOccurrences(trx: Knex.Transaction, documentIds: readonly string[]): Promise<Map<string, string>> {
  if (documentIds.length === 0) return new Map();
  const rows = (
    await trx.raw('select document_id, template_id from recurrence_occurrences where document_id = any(?::uuid[]) and document_id <> template_id', [
      [...documentIds],
    ])
  ).rows as { document_id: string; template_id: string }[];
  return new Map(rows.map((r) => [r.document_id, r.template_id]));
}

/** A document a recurrence created is marked as such (spec §3 source). */
export async function markRecurringSource(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('documents').where({ id }).update({ source: 'recurring' });
}

/** The kind of a document of the caller's workspace that is not deleted; undefined when there is none. */
export async function documentKindById(trx: Knex.Transaction, id: string): Promise<DocumentKind | undefined> {
  return ((await trx.raw('select kind from documents where id = ? and deleted_at is null', [id])).rows[0] as { kind: DocumentKind } | undefined)?.kind;
}
