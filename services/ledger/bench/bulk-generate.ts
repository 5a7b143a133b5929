/**
 * Generates a workspace's books through the ledger's own set-based bulk posting (`postEntries`), in its
 * own process: `entries` two-line entries over 2023-01-01..2025-12-31, `chunk` entries per database
 * transaction, each chunk writing exactly what the product writes (entries, lines with their places,
 * month and day balances, `entry.posted` in the outbox). The ledger's relay publishes them afterwards.
 * Amounts, accounts and dates come from a seeded hash of each entry's index, so the same plan always
 * gives the same books, and a run that was stopped resumes after the last chunk that committed.
 *
 *   npx tsx --conditions=ledgerline-source services/ledger/bench/bulk-generate.ts <plan.json>
 *
 * The plan (written by the reporting bench): { databaseUrl, workspaceId, entries, chunk, seed, cash,
 * income: [ids], expenses: [ids], balanceSheet: [[debitId, creditId], ...] }. Prints one JSON line:
 * { posted, skipped, seconds, entriesPerSecond }.
 */
import { readFileSync } from 'node:fs';
import { createDb, withTenant } from '@ledgerline/platform';
import { postEntries, type NewEntry } from '../src/store/journal.js';

export interface GeneratorPlan {
  databaseUrl: string;
  workspaceId: string;
  entries: number;
  chunk: number;
  seed: number;
  /** The cash account: one side of every income and expense entry (the busiest account). */
  cash: string;
  income: string[];
  expenses: string[];
  /** Debit and credit account of balance-sheet movements (loans, equity raised, equipment bought...). */
  balanceSheet: [string, string][];
}

const DAY0 = Date.UTC(2023, 0, 1);
const DAYS = (Date.UTC(2026, 0, 1) - DAY0) / 86_400_000;

/** A 32-bit hash of (seed, index, salt): the same entry always draws the same numbers. */
function draw(seed: number, i: number, salt: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i + 1, 0xc2b2ae35) ^ Math.imul(salt + 1, 0x27d4eb2f);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;

/** Entry `i` of the plan: 42% income, 50% expenses, 8% balance-sheet movements. */
export function entryAt(plan: GeneratorPlan, i: number): NewEntry {
  const kind = draw(plan.seed, i, 0) % 100;
  const date = new Date(DAY0 + (draw(plan.seed, i, 1) % DAYS) * 86_400_000).toISOString().slice(0, 10);
  const n = draw(plan.seed, i, 2);
  let debit: string;
  let credit: string;
  let amountCents: number;
  if (kind < 42) {
    [debit, credit, amountCents] = [plan.cash, pick(plan.income, n), 5_000 + (draw(plan.seed, i, 3) % 400_000)];
  } else if (kind < 92 || plan.balanceSheet.length === 0) {
    [debit, credit, amountCents] = [pick(plan.expenses, n), plan.cash, 100 + (draw(plan.seed, i, 3) % 300_000)];
  } else {
    [debit, credit] = pick(plan.balanceSheet, n);
    amountCents = 10_000 + (draw(plan.seed, i, 3) % 1_000_000);
  }
  return {
    workspaceId: plan.workspaceId,
    date,
    sourceType: 'ManualEntry',
    description: `Generated entry ${i + 1}`,
    lines: [
      { accountId: debit, direction: 'debit', amountCents },
      { accountId: credit, direction: 'credit', amountCents },
    ],
  };
}

export async function generate(
  plan: GeneratorPlan,
  log: (line: string) => void,
): Promise<{ posted: number; skipped: number; seconds: number; entriesPerSecond: number }> {
  // Two connections: the posting transaction and nothing else (the chunk is one statement and one outbox insert).
  const db = createDb({ url: plan.databaseUrl, pool: { max: 2 }, applicationName: 'ledger-bulk-generate' });
  try {
    // Chunks commit whole, so the entries already there are exactly the first `done` of the plan.
    const done = Number(
      (
        await withTenant(db, { workspaceId: plan.workspaceId }, (trx) =>
          trx.raw('select count(*) as n from journal_entries where workspace_id = ?', [plan.workspaceId]),
        )
      ).rows[0].n,
    );
    const started = performance.now();
    let lastLog = started;
    for (let from = done; from < plan.entries; from += plan.chunk) {
      const entries = Array.from({ length: Math.min(plan.chunk, plan.entries - from) }, (_, k) => entryAt(plan, from + k));
      await withTenant(db, { workspaceId: plan.workspaceId }, (trx) => postEntries(trx, entries));
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        const posted = from + entries.length - done;
        log(`posted ${from + entries.length} of ${plan.entries} (${Math.round(posted / ((lastLog - started) / 1000))} entries/s)`);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const posted = Math.max(0, plan.entries - done);
    return {
      posted,
      skipped: Math.min(done, plan.entries),
      seconds: Math.round(seconds * 10) / 10,
      entriesPerSecond: seconds > 0 ? Math.round(posted / seconds) : 0,
    };
  } finally {
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const plan = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as GeneratorPlan;
  const result = await generate(plan, (line) => process.stderr.write(`generator: ${line}\n`));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
