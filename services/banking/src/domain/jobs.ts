/** Spec §3 queue statuses a client may filter by, and the stored statuses each one means. */
const FILTERS: Record<string, readonly StoredStatus[]> = {
  waiting: ['waiting'],
  wait: ['waiting'],
  'waiting-children': [],
  active: ['active'],
  completed: ['completed'],
  failed: ['failed'],
  paused: [],
  repeat: [],
  delayed: ['delayed'],
  prioritized: [],
};

export const STORED_STATUSES = ['waiting', 'delayed', 'active', 'completed', 'failed'] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];

/** The stored statuses matching a filter list; undefined means every status. */
export function storedStatusesFor(filters: readonly string[]): StoredStatus[] | undefined {
  if (filters.length === 0) return undefined;
  return [...new Set(filters.flatMap((f) => FILTERS[f] ?? []))];
}

/** Delay before retry `attempt` (1-based): base, 2×base, 4×base... at most 5 minutes. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(5 * 60_000, baseMs * 2 ** Math.max(0, attempt - 1));
}
