import { dateRange, matchTransactions, type TxKey } from './duplicates.js';

export const MERGE_STRATEGIES = ['forward-only-merge', 'complete-merge'] as const;
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];
export const RESOLUTIONS = ['keep_target', 'keep_both', 'keep_source'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export interface MergeInput {
  strategy: MergeStrategy;
  source: readonly TxKey[];
  target: readonly TxKey[];
  /** Pairs the user resolved; unlisted matched pairs are keep_target. */
  conflicts: readonly { sourceTransactionId: string; targetTransactionId: string; resolution: Resolution }[];
  keepTargetsNonMatchedTransactions: boolean;
}

export interface MergePlan {
  /** Source transactions to copy into the target account (then removed from the source). */
  move: string[];
  /** Source transactions not carried over (the target's counterpart or history wins). */
  drop: string[];
  /** Target transactions to remove. */
  removeTarget: string[];
}

/**
 * What a merge of `source` into `target` does to their transactions (pure; the use case applies it).
 *
 * - forward-only-merge: the target keeps its history; only source transactions dated after the target's
 *   last transaction move over. Conflicts do not arise.
 * - complete-merge: every source transaction is considered. Pairs (the user's conflicts first, then
 *   automatic date-and-amount matches) follow their resolution: keep_target drops the source one,
 *   keep_source moves it and removes the target one, keep_both moves it and keeps both. Unpaired source
 *   transactions move. Unpaired target transactions inside the source's date range are removed when
 *   keepTargetsNonMatchedTransactions is false.
 */
export function planMerge(input: MergeInput): MergePlan {
  const plan: MergePlan = { move: [], drop: [], removeTarget: [] };
  if (input.strategy === 'forward-only-merge') {
    const end = dateRange(input.target)?.end;
    for (const s of input.source) (end === undefined || s.date > end ? plan.move : plan.drop).push(s.id);
    return plan;
  }
  const pairedSource = new Set<string>();
  const pairedTarget = new Set<string>();
  const apply = (sourceId: string, targetId: string, resolution: Resolution) => {
    pairedSource.add(sourceId);
    pairedTarget.add(targetId);
    if (resolution === 'keep_target') plan.drop.push(sourceId);
    else plan.move.push(sourceId);
    if (resolution === 'keep_source') plan.removeTarget.push(targetId);
  };
  for (const c of input.conflicts) {
    if (pairedSource.has(c.sourceTransactionId) || pairedTarget.has(c.targetTransactionId)) continue;
    apply(c.sourceTransactionId, c.targetTransactionId, c.resolution);
  }
  const { pairs } = matchTransactions(
    input.source.filter((s) => !pairedSource.has(s.id)),
    input.target.filter((t) => !pairedTarget.has(t.id)),
  );
  for (const p of pairs) apply(p.source.id, p.target.id, 'keep_target');
  for (const s of input.source) if (!pairedSource.has(s.id)) plan.move.push(s.id);
  if (!input.keepTargetsNonMatchedTransactions) {
    const range = dateRange(input.source);
    if (range) for (const t of input.target) if (!pairedTarget.has(t.id) && t.date >= range.start && t.date <= range.end) plan.removeTarget.push(t.id);
  }
  return plan;
}
