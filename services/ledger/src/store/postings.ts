import { AppError, ErrorKind, type Knex } from '@ledgerline/platform';
import type { PostingLine } from '../domain/posting.js';
import { POSTING_MSG } from '../domain/source-posting.js';
import { postEntry, reverseEntry, type SourceType } from './journal.js';

export interface SourceRow {
  workspace_id: string;
  source_type: SourceType;
  source_id: string;
  current_version: number;
  current_entry_id: string | null;
}

interface SourcePostingRow {
  version: number;
  body_hash: string;
  entry_id: string | null;
  reversed_entry_id: string | null;
  reversal_entry_id: string | null;
  seq: number;
}

export interface VersionToApply {
  workspaceId: string;
  sourceType: SourceType;
  sourceId: string;
  version: number;
  /** Empty for a void. */
  date: string;
  description: string;
  /** None: a void (the current entry is reversed, nothing new is posted). */
  lines: PostingLine[];
  bodyHash: string;
}

export interface PostingOutcome {
  entryId: string | null;
  /** Commit sequence of the last entry this version posted; 0 when it posted nothing. */
  seq: number;
  reversedEntryId: string | null;
  reversalEntryId: string | null;
  replayed: boolean;
  version: number;
}

/**
 * The row of a source document, locked for the rest of the transaction: every version of one source
 * is applied one at a time, and a concurrent identical request waits here, then finds the version
 * applied. The first request of a source creates the row (a concurrent creator waits on its key).
 */
export async function lockSource(trx: Knex.Transaction, workspaceId: string, sourceType: SourceType, sourceId: string): Promise<SourceRow> {
  await trx.raw('insert into posting_sources (workspace_id, source_type, source_id) values (?, ?, ?) on conflict do nothing', [
    workspaceId,
    sourceType,
    sourceId,
  ]);
  const row = (await trx('posting_sources').where({ workspace_id: workspaceId, source_type: sourceType, source_id: sourceId }).forUpdate().first()) as
    SourceRow | undefined;
  if (!row) throw new Error(`posting source ${sourceType} ${sourceId} vanished`);
  return { ...row, current_version: Number(row.current_version) };
}

/** The source's row without creating or locking it (reads). */
export async function findSource(trx: Knex.Transaction, sourceType: SourceType, sourceId: string): Promise<SourceRow | undefined> {
  const row = (await trx('posting_sources').where({ source_type: sourceType, source_id: sourceId }).first()) as SourceRow | undefined;
  return row && { ...row, current_version: Number(row.current_version) };
}

/** The body hash of one applied version of a source (undefined when that version was never applied). */
export async function versionBodyHash(trx: Knex.Transaction, sourceType: SourceType, sourceId: string, version: number): Promise<string | undefined> {
  const row = (await trx('source_postings').where({ source_type: sourceType, source_id: sourceId, version }).first('body_hash')) as
    { body_hash: string } | undefined;
  return row?.body_hash;
}

const outcomeOf = (r: SourcePostingRow, replayed: boolean): PostingOutcome => ({
  entryId: r.entry_id,
  seq: Number(r.seq),
  reversedEntryId: r.reversed_entry_id,
  reversalEntryId: r.reversal_entry_id,
  replayed,
  version: Number(r.version),
});

/**
 * Applies one version of a source, idempotently, in the caller's transaction: the same version with
 * the same body answers what it answered the first time; with another body it is refused; an older
 * version than the one applied is refused; a newer one reverses the source's current entry and posts
 * its own lines (none: a void). The primary key of `source_postings` backs the check in the database.
 */
export async function applyVersion(trx: Knex.Transaction, v: VersionToApply): Promise<PostingOutcome> {
  const source = await lockSource(trx, v.workspaceId, v.sourceType, v.sourceId);
  const key = { workspace_id: v.workspaceId, source_type: v.sourceType, source_id: v.sourceId };
  const applied = (await trx('source_postings')
    .where({ ...key, version: v.version })
    .first()) as SourcePostingRow | undefined;
  if (applied) {
    if (applied.body_hash === v.bodyHash) return outcomeOf(applied, true);
    throw new AppError(ErrorKind.Conflict, POSTING_MSG.bodyChanged(v.sourceType, v.sourceId, v.version), {
      appErrorCode: 'IDEMPOTENCY_KEY_REUSED',
      fields: [{ field: 'version', message: POSTING_MSG.bodyChanged(v.sourceType, v.sourceId, v.version) }],
    });
  }
  if (v.version <= source.current_version) {
    throw new AppError(ErrorKind.FailedPrecondition, POSTING_MSG.versionStale(v.version, source.current_version), {
      appErrorCode: 'POSTING_VERSION_STALE',
      fields: [{ field: 'version', message: POSTING_MSG.versionStale(v.version, source.current_version) }],
    });
  }

  let reversalEntryId: string | null = null;
  if (source.current_entry_id) {
    const original = (await trx('journal_entries').where({ id: source.current_entry_id }).first('description')) as { description: string };
    reversalEntryId = await reverseEntry(
      trx,
      source.current_entry_id,
      v.lines.length === 0 ? `Void: ${original.description}` : `Reversal: ${original.description}`,
    );
  }
  const entryId =
    v.lines.length > 0
      ? await postEntry(trx, {
          workspaceId: v.workspaceId,
          date: v.date,
          sourceType: v.sourceType,
          sourceId: v.sourceId,
          description: v.description,
          lines: v.lines,
        })
      : null;
  const posted = [entryId, reversalEntryId].filter((id): id is string => id !== null);
  const seq =
    posted.length === 0 ? 0 : Number(((await trx('journal_entries').whereIn('id', posted).max('seq as seq').first()) as { seq: number | string }).seq);

  const row: SourcePostingRow = {
    version: v.version,
    body_hash: v.bodyHash,
    entry_id: entryId,
    reversed_entry_id: source.current_entry_id,
    reversal_entry_id: reversalEntryId,
    seq,
  };
  await trx('source_postings').insert({ ...key, ...row });
  await trx('posting_sources').where(key).update({ current_version: v.version, current_entry_id: entryId, updated_at: trx.fn.now() });
  return outcomeOf(row, false);
}
