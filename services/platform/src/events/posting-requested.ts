import type { Knex } from 'knex';
import { EventType } from './catalog.js';
import { writeEvent } from './outbox.js';

/** One version of a document the ledger books (decision 0012), as its owner commits it. */
export interface RequestedPosting {
  sourceType: string;
  sourceId: string;
  version: number;
  /** Empty for a void. */
  date: string;
  description: string;
  /** None: a void. `direction` for manual journal lines only. */
  lines: readonly { categoryId: string; amountCents: number; direction?: string }[];
  /** Bills and invoices: the whole set of bank transactions paying the document; undefined leaves the links alone. */
  payments?: readonly { transactionId: string; amountCents: number }[];
}

/**
 * Writes posting.requested in the owner's transaction, with the version's rows: the ledger books the version once the
 * owner commits, whether or not the owner's own call after the commit reaches it (decision 0012).
 */
export function writePostingRequested(trx: Knex.Transaction, source: string, workspaceId: string, p: RequestedPosting): Promise<string> {
  return writeEvent(trx, source, {
    type: EventType.PostingRequested,
    workspaceId,
    payload: {
      sourceType: p.sourceType,
      sourceId: p.sourceId,
      version: BigInt(p.version),
      date: p.date,
      description: p.description,
      lines: p.lines.map((l) => ({ categoryId: l.categoryId, amountCents: BigInt(l.amountCents), direction: l.direction ?? '' })),
      setPayments: p.payments !== undefined,
      payments: (p.payments ?? []).map((x) => ({ transactionId: x.transactionId, amountCents: BigInt(x.amountCents) })),
    },
  });
}
