import { tenantHeaders, withSystem, withTenant, type Knex, type Logger } from '@ledgerline/platform';
import { addMonths, MIN_DATE, monthEnd } from '../domain/dates.js';
import { dailyMonthlyMismatches, monthlyBalances, projectedWorkspaces } from '../store/balances.js';
import { merchantMismatches } from '../store/merchants.js';
import type { LedgerClient } from './accounts.js';

export interface Difference {
  /** YYYY-MM-01, or 'all' for the all-time totals. */
  month: string;
  accountId: string;
  ledger: { debit: number; credit: number };
  reporting: { debit: number; credit: number };
}

export interface CheckResult {
  workspaceId: string;
  ok: boolean;
  months: number;
  differences: Difference[];
  /** Months whose daily balances do not add up to the monthly ones. */
  dailyMismatches: { month: string; accountId: string }[];
  /** Days and months whose balances by merchant, summed over merchants, differ from the balances. */
  merchantMismatches: { period: string; accountId: string }[];
}

type Sums = Map<string, { debit: number; credit: number }>;

function compare(month: string, ledger: Sums, reporting: Sums): Difference[] {
  const out: Difference[] = [];
  for (const id of new Set([...ledger.keys(), ...reporting.keys()])) {
    const l = ledger.get(id) ?? { debit: 0, credit: 0 };
    const r = reporting.get(id) ?? { debit: 0, credit: 0 };
    if (l.debit !== r.debit || l.credit !== r.credit) out.push({ month, accountId: id, ledger: l, reporting: r });
  }
  return out;
}

/**
 * Compares the read model with the ledger's own balances: debits and credits per account for every
 * month the read model holds (the ledger's general ledger for that month) and for all time (which
 * catches months the read model never saw), plus the daily table against the monthly one.
 */
export async function checkWorkspace(deps: { db: Knex; ledger: LedgerClient }, workspaceId: string): Promise<CheckResult> {
  const { rows, daily, merchants } = await withTenant(deps.db, { workspaceId }, async (trx) => ({
    rows: await monthlyBalances(trx, workspaceId), daily: await dailyMonthlyMismatches(trx, workspaceId), merchants: await merchantMismatches(trx, workspaceId),
  }));
  const call = { headers: tenantHeaders({ workspaceId, role: 'Viewer' }) };
  const ledgerSums = async (start: string, end: string): Promise<Sums> => {
    const r = await deps.ledger.getGeneralLedger({ startDate: start, endDate: end }, call);
    return new Map(r.data.filter((a) => a.debitCents !== 0n || a.creditCents !== 0n).map((a) => [a.ledgerAccountId, { debit: Number(a.debitCents), credit: Number(a.creditCents) }]));
  };
  const byMonth = new Map<string, Sums>();
  const allTime: Sums = new Map();
  for (const r of rows) {
    const m = byMonth.get(r.month) ?? new Map();
    m.set(r.accountId, { debit: r.debit, credit: r.credit });
    byMonth.set(r.month, m);
    const t = allTime.get(r.accountId) ?? { debit: 0, credit: 0 };
    allTime.set(r.accountId, { debit: t.debit + r.debit, credit: t.credit + r.credit });
  }
  const differences = compare('all', await ledgerSums(MIN_DATE, '9999-12-31'), allTime);
  const months = [...byMonth.keys()].sort();
  if (months.length) {
    for (let m = months[0] as string; m <= (months[months.length - 1] as string); m = addMonths(m, 1)) {
      differences.push(...compare(m, await ledgerSums(m, monthEnd(m)), byMonth.get(m) ?? new Map()));
    }
  }
  return { workspaceId, ok: differences.length === 0 && daily.length === 0 && merchants.length === 0, months: months.length, differences, dailyMismatches: daily, merchantMismatches: merchants };
}

/** Every workspace the read model knows, checked one after another. */
export async function checkAll(deps: { db: Knex; ledger: LedgerClient; logger: Logger }, workspaceIds?: string[]): Promise<CheckResult[]> {
  const ids = workspaceIds ?? (await withSystem(deps.db, projectedWorkspaces));
  const out: CheckResult[] = [];
  for (const id of ids) {
    const r = await checkWorkspace(deps, id);
    if (!r.ok) deps.logger.warn({ workspaceId: id, differences: r.differences.slice(0, 10), dailyMismatches: r.dailyMismatches.slice(0, 10), merchantMismatches: r.merchantMismatches.slice(0, 10) }, 'read model differs from the ledger');
    out.push(r);
  }
  return out;
}

/**
 * Empties the read model and moves to the next generation; the caller then starts the new
 * generation's consumer, which replays entry.posted from the start of the stream.
 */
export async function resetForRebuild(db: Knex): Promise<number> {
  return withSystem(db, async (trx) => {
    const state = (await trx('projection_state').where({ id: 1 }).forUpdate().first()) as { generation: number };
    // DELETE, not TRUNCATE: the application role holds no TRUNCATE privilege.
    for (const table of ['balances_daily', 'balances_monthly', 'merchant_balances_daily', 'merchant_balances_monthly', 'merchants', 'projected_entries', 'origins_unclassified']) await trx(table).delete();
    await trx('inbox').where('consumer', 'like', 'reporting%').delete();
    // Versions go on counting (never back to a number a cached report was built at).
    await trx.raw('update workspace_versions set version = version + 1, updated_at = now()');
    const generation = state.generation + 1;
    await trx('projection_state').where({ id: 1 }).update({ generation, rebuilt_at: trx.fn.now() });
    return generation;
  });
}

export async function currentGeneration(db: Knex): Promise<number> {
  return withSystem(db, async (trx) => ((await trx('projection_state').where({ id: 1 }).first()) as { generation: number } | undefined)?.generation ?? 0);
}
