// Consolidated reports (spec §3 filter set `workspaces`): several workspaces' balances on one chart.
import type { Account, DebitCredit } from './report.js';

export type ColumnSums = Map<string, (DebitCredit | undefined)[]>;

export interface WorkspaceBalances {
  accounts: readonly Account[];
  sums: ReadonlyMap<string, readonly (DebitCredit | undefined)[]>;
}

/**
 * One chart and one set of sums from several workspaces' (the first lays the report out): an account of
 * a later workspace is matched to the first account with the same coaId, else added under its parent
 * (itself matched the same way), so the rows are the first chart's plus the accounts only others have.
 * Each workspace's sums are added to the account they are matched to. Also returns, per workspace, the
 * id each of its accounts maps to (cash-flow figures read per workspace are re-keyed with it).
 */
export function consolidate(parts: readonly WorkspaceBalances[], columns: number): { accounts: Account[]; sums: ColumnSums; idMaps: Map<string, string>[] } {
  const accounts: Account[] = [];
  const byCoa = new Map<number, string>();
  const sums: ColumnSums = new Map();
  const idMaps: Map<string, string>[] = [];
  for (const part of parts) {
    const idMap = new Map<string, string>();
    // Parents before children, so a parent's match is known when its child is added.
    for (const a of [...part.accounts].sort((x, y) => x.level - y.level)) {
      // coaId 0 names no account of the standard chart: never matched across workspaces.
      const same = a.coaId ? byCoa.get(a.coaId) : undefined;
      if (same !== undefined) {
        idMap.set(a.id, same);
        continue;
      }
      accounts.push({ ...a, parentId: a.parentId ? (idMap.get(a.parentId) ?? a.parentId) : null });
      if (a.coaId) byCoa.set(a.coaId, a.id);
      idMap.set(a.id, a.id);
    }
    for (const [id, list] of part.sums) {
      const target = idMap.get(id) ?? id;
      const into = sums.get(target) ?? new Array<DebitCredit | undefined>(columns).fill(undefined);
      list.forEach((dc, i) => {
        if (!dc) return;
        const prev = into[i] ?? { debit: 0, credit: 0 };
        into[i] = { debit: prev.debit + dc.debit, credit: prev.credit + dc.credit };
      });
      sums.set(target, into);
    }
    idMaps.push(idMap);
  }
  return { accounts, sums, idMaps };
}
