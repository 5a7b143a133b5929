// Reads after writes (ARCHITECTURE §3): every change to the books answers the ledger's commit sequence
// (`seq`). The app keeps the highest one per workspace and sends it with report requests, so a report
// opened right after categorising waits (up to 2 s on the server) until it shows the change.

export interface LedgerSeq {
  /** Keeps `seq` when it is the highest the selected workspace has had; anything else is ignored. */
  remember(seq: number | null | undefined): void;
  /** The highest seq a change in the selected workspace answered, or undefined before its first change. */
  current(): number | undefined;
}

export function createLedgerSeq(getWorkspaceId: () => string | null | undefined): LedgerSeq {
  const highest = new Map<string, number>();
  return {
    remember(seq) {
      const workspaceId = getWorkspaceId();
      if (!workspaceId || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq <= 0) return;
      if (seq > (highest.get(workspaceId) ?? 0)) highest.set(workspaceId, seq);
    },
    current() {
      const workspaceId = getWorkspaceId();
      return workspaceId ? highest.get(workspaceId) : undefined;
    },
  };
}

/** A report query with the workspace's seq added (none before its first change). */
export function withSeq<Q extends object>(query: Q, seq: number | undefined): Q & { seq?: string } {
  return seq === undefined ? query : { ...query, seq: String(seq) };
}
