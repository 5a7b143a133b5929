import { AppError, ErrorKind, type Knex } from '@ledgerline/platform';
import { missingReferences, type ReferenceKind } from '../store/references.js';

/** An id (or ids) inside a request, with the field that carries it as the client named it. */
export interface Reference {
  field: string;
  kind: ReferenceKind;
  /** Empty and absent ids are skipped (they mean "none" or "unchanged"). */
  ids: readonly (string | null | undefined)[];
}

/** How the 404 names what was not found; the message stays the one clients already read for that kind. */
const WHAT: Record<ReferenceKind, string> = {
  category: 'Category',
  ledgerAccount: 'Ledger account',
  bankAccount: 'Account',
  biller: 'Biller',
  vendor: 'Vendor',
  appliedRule: 'Rule',
  transaction: 'Transaction',
};

/** A 404 that names the field: `{ message: 'Category not found', errors: [{ field: 'transactions.0.categoryId', ... }] }`. */
export function referenceNotFound(field: string, kind: ReferenceKind): AppError {
  const message = `${WHAT[kind]} not found`;
  return new AppError(ErrorKind.NotFound, message, { fields: [{ field, message }] });
}

/**
 * Every id inside a body or query must name something of the caller's workspace (issue #15): looked up
 * through the row-level-security context, before anything is written, so a refused request changes
 * nothing. The first field (in the order given) with an unknown id is the 404's.
 */
export async function assertReferences(trx: Knex.Transaction, refs: readonly Reference[]): Promise<void> {
  const byKind = new Map<ReferenceKind, Set<string>>();
  for (const r of refs) {
    const set = byKind.get(r.kind) ?? new Set<string>();
    for (const id of r.ids) if (id) set.add(id);
    byKind.set(r.kind, set);
  }
  const missing = new Map<ReferenceKind, Set<string>>();
  for (const [kind, ids] of byKind) if (ids.size > 0) missing.set(kind, await missingReferences(trx, kind, [...ids]));
  for (const r of refs) {
    const gone = missing.get(r.kind);
    if (gone && r.ids.some((id) => !!id && gone.has(id))) throw referenceNotFound(r.field, r.kind);
  }
}
