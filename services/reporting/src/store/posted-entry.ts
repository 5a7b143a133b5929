import type { Origin } from '../domain/origins.js';
/** One entry.posted, decoded and checked, as the projector applies it. */
export interface PostedEntry {
  workspaceId: string;
  entryId: string;
  seq: number;
  date: string;
  /** Where the entry came from (its source type): bank, document or adjustment. */
  origin: Origin;
  lines: { accountId: string; direction: 'debit' | 'credit'; amountCents: number }[];
  /** The entry it reverses ('' for none). */
  reversesEntryId: string;
  /** The merchant of the entry ('' for none) and its name then. */
  billerId: string;
  billerName: string;
}
