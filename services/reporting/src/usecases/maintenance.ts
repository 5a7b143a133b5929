import { tenantHeaders, withSystem, withTenant, type Knex, type Logger } from '@ledgerline/platform';
import { addMonths, MAX_DATE, MIN_DATE, monthEnd } from '../domain/dates.js';
import { dailyMonthlyMismatches, monthlyBalances, projectedWorkspaces } from '../store/balances.js';
import { merchantMismatches } from '../store/merchants.js';
import { projectionGeneration, resetReadModel } from '../store/projection.js';
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
    rows: await monthlyBalances(trx, workspaceId),
    daily: await dailyMonthlyMismatches(trx, workspaceId),
    merchants: await merchantMismatches(trx, workspaceId),
  }));
  const call = { headers: tenantHeaders({ workspaceId, role: 'Viewer' }) };
  const ledgerSums = async (start: string, end: string): Promise<Sums> => {
    const r = await deps.ledger.getGeneralLedger({ startDate: start, endDate: end }, call);
    // Retained Earnings' virtual closing lines (one per closed fiscal year) are not posted: the read model
    // holds posted lines only, so they are taken back out (a net income closes as a credit, a loss as a debit).
    const posted = (a: (typeof r.data)[number]) => ({
      debit: Number(a.debitCents - a.yearEndCloseDebitCents),
      credit: Number(a.creditCents - a.yearEndCloseCreditCents),
    });
    return new Map(r.data.map((a) => [a.ledgerAccountId, posted(a)] as const).filter(([, s]) => s.debit !== 0 || s.credit !== 0));
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
  const differences = compare('all', await ledgerSums(MIN_DATE, MAX_DATE), allTime);
  const months = [...byMonth.keys()].sort();
  if (months.length) {
    for (let m = months[0] as string; m <= (months[months.length - 1] as string); m = addMonths(m, 1)) {
      differences.push(...compare(m, await ledgerSums(m, monthEnd(m)), byMonth.get(m) ?? new Map()));
    }
  }
  return {
    workspaceId,
    ok: differences.length === 0 && daily.length === 0 && merchants.length === 0,
    months: months.length,
    differences,
    dailyMismatches: daily,
    merchantMismatches: merchants,
  };
}

/** Every workspace the read model knows, checked one after another. */
export async function checkAll(deps: { db: Knex; ledger: LedgerClient; logger: Logger }, workspaceIds?: string[]): Promise<CheckResult[]> {
  const ids = workspaceIds ?? (await withSystem(deps.db, projectedWorkspaces));
  const out: CheckResult[] = [];
  for (const id of ids) {
    const r = await checkWorkspace(deps, id);
    if (!r.ok)
      deps.logger.warn(
        {
          workspaceId: id,
          differences: r.differences.slice(0, 10),
          dailyMismatches: r.dailyMismatches.slice(0, 10),
          merchantMismatches: r.merchantMismatches.slice(0, 10),
        },
        'read model differs from the ledger',
      );
    out.push(r);
  }
  return out;
}

/**
 * Empties the read model and moves to the next generation; the caller then starts the new
 * generation's consumer, which replays entry.posted from the start of the stream.
 */
export async function resetForRebuild(db: Knex): Promise<number> {
  return withSystem(db, resetReadModel);
}

export async function currentGeneration(db: Knex): Promise<number> {
  return withSystem(db, projectionGeneration);
}
