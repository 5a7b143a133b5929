import type { ReportQuery } from '../domain/query.js';

/**
 * Reports already built, per workspace and query, each labelled with the version of the workspace's
 * balances it was read at (bumped in the same transaction as every batch that changes them) and the
 * generation of the chart of accounts it was laid out with. An entry is served only while both are still
 * current, so a cached report is exactly the report a fresh read would build — asking for the version is
 * one indexed row, where building a 12-month P&L reads and rolls up thousands of balances.
 * Least recently used entries go first; a process keeps at most `maxEntries`.
 */
export class ReportCache {
  private readonly entries = new Map<string, { version: number; generation: number; value: unknown }>();

  constructor(private readonly maxEntries: number) {}

  get enabled(): boolean {
    return this.maxEntries > 0;
  }

  static key(kind: string, workspaceId: string, q: ReportQuery): string {
    return [kind, workspaceId, q.start, q.end, q.requested, q.periodicity, q.groups.join(','), q.tags.join(','), q.excludeZeroes].join('|');
  }

  /** The cached value when it was built at this version and chart generation. */
  get<T>(key: string, version: number, generation: number): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.version !== version || e.generation !== generation) return undefined;
    this.entries.set(key, e);
    return e.value as T;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, version: number, generation: number, value: unknown): void {
    if (!this.enabled) return;
    this.entries.delete(key);
    this.entries.set(key, { version, generation, value });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
