/** A raw transaction as the duplicate check and the merge see it. */
export interface TxKey {
  id: string;
  date: string;
  amountCents: number;
}

export interface MatchResult {
  /** Transactions of `source` dated inside the target's date range. */
  overlapping: TxKey[];
  /** Pairs of the same date and amount (each transaction used at most once). */
  pairs: { source: TxKey; target: TxKey }[];
  matchPercentage: number;
}

export function dateRange(txs: readonly TxKey[]): { start: string; end: string } | null {
  if (txs.length === 0) return null;
  let start = txs[0]!.date;
  let end = start;
  for (const t of txs) {
    if (t.date < start) start = t.date;
    if (t.date > end) end = t.date;
  }
  return { start, end };
}

/**
 * Pairs transactions of two accounts that look like the same bank movement: same date and amount, one
 * to one (two coffees of the same price on one day pair with two, not four). Deterministic: candidates
 * are taken in id order.
 */
export function matchTransactions(source: readonly TxKey[], target: readonly TxKey[]): MatchResult {
  const range = dateRange(target);
  const overlapping = range ? source.filter((t) => t.date >= range.start && t.date <= range.end) : [];
  const byKey = new Map<string, TxKey[]>();
  for (const t of [...target].sort((a, b) => a.id.localeCompare(b.id))) {
    const k = `${t.date}|${t.amountCents}`;
    const list = byKey.get(k);
    if (list) list.push(t);
    else byKey.set(k, [t]);
  }
  const pairs: MatchResult['pairs'] = [];
  for (const s of [...overlapping].sort((a, b) => a.id.localeCompare(b.id))) {
    const t = byKey.get(`${s.date}|${s.amountCents}`)?.shift();
    if (t) pairs.push({ source: s, target: t });
  }
  const matchPercentage = overlapping.length === 0 ? 0 : Math.round((pairs.length / overlapping.length) * 10_000) / 100;
  return { overlapping, pairs, matchPercentage };
}

/** Two accounts that look like the same real account: same institution, same mask and kind. */
export function sameRealAccount(
  a: { institutionId: string; institutionName: string; mask: string; type: string; subtype: string; name: string },
  b: { institutionId: string; institutionName: string; mask: string; type: string; subtype: string; name: string },
): boolean {
  const sameInstitution =
    a.institutionId && b.institutionId ? a.institutionId === b.institutionId : a.institutionName.toLowerCase() === b.institutionName.toLowerCase();
  if (!sameInstitution) return false;
  if (a.type !== b.type || a.subtype !== b.subtype) return false;
  if (a.mask || b.mask) return a.mask === b.mask;
  return a.name.toLowerCase() === b.name.toLowerCase();
}
