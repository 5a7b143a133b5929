import { createHash } from 'node:crypto';
import { LruMap } from '@ledgerline/platform';
import type { ReportQuery } from '../domain/query.js';

/**
 * Reports already built, per workspace and query, each labelled with the version of the workspace's
 * balances it was read at (of each workspace read, for a consolidated report) (bumped in the same transaction as every batch that changes them) and the
 * generation of the chart of accounts it was laid out with. An entry is served only while both are still
 * current, so a cached report is exactly the report a fresh read would build — asking for the version is
 * one indexed row, where building a 12-month P&L reads and rolls up thousands of balances.
 * Least recently used entries go first; a process keeps at most `maxEntries`.
 */
export class ReportCache {
  private readonly entries: LruMap<string, { version: number | string; generation: string; value: unknown }>;

  constructor(maxEntries: number) {
    this.entries = new LruMap(maxEntries);
  }

  static key(kind: string, workspaceId: string, q: ReportQuery): string {
    // The workspaces sorted: the same set is the same report (see ReportUseCases.tenantsOf).
    return [
      kind,
      workspaceId,
      q.start,
      q.end,
      q.requested,
      q.periodicity,
      q.groups.join(','),
      q.tags.join(','),
      q.excludeZeroes,
      q.moneyType,
      [...q.workspaceIds].sort().join(','),
    ].join('|');
  }

  /** Names a report's content: the same key, balances, chart and caughtUp give the same report, byte for byte. */
  static etag(key: string, version: number | string, generation: string, caughtUp: boolean): string {
    return createHash('sha1').update(`${key}|${version}|${generation}|${caughtUp}`).digest('base64url').slice(0, 27);
  }

  /** The cached value when it was built at this version and chart generation. */
  get<T>(key: string, version: number | string, generation: string): T | undefined {
    const e = this.entries.get(key);
    if (!e || e.version !== version || e.generation !== generation) return undefined;
    return e.value as T;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, version: number | string, generation: string, value: unknown): void {
    this.entries.set(key, { version, generation, value });
  }
}
