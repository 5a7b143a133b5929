// The plain-text export is the user's exit door and our oracle: Debian's hledger reads the journal, and
// its balance of every account, all time, for a period and at a period's end, equals the general ledger.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { createLogger, newId, withTenant } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDebitNormal } from '../src/domain/chart.js';
import { ensureBankLedgerAccount, ensureChart } from '../src/store/chart-store.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { applyBankTransaction } from '../src/usecases/bank-events.js';
import { createUseCases, type LedgerUseCases } from '../src/usecases/index.js';

// 2,000 in the everyday suite (it shares 2 cores with the rest); `npm run test:export-10k -w @ledgerline/ledger` runs the 10,000.
const TRANSACTIONS = Number(process.env.LEDGER_EXPORT_TRANSACTIONS ?? 2_000);

let db: TestDatabase;
let u: LedgerUseCases;
let dir: string;
const ws = newId();
const tenant = { workspaceId: ws, userId: newId(), role: 'Owner' as const };

/** A small deterministic PRNG (mulberry32), so a failure reproduces. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hledger(file: string, ...args: string[]): Map<string, number> {
  const csv = execFileSync('/usr/bin/hledger', ['-f', file, 'balance', '--flat', '-N', '-O', 'csv', ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = new Map<string, number>();
  for (const line of csv.trim().split('\n').slice(1)) {
    const m = /^"(.*)","(-?[\d,]+\.\d{2}) USD"$/.exec(line) ?? /^"(.*)","(0)"$/.exec(line);
    if (!m) throw new Error(`unexpected hledger line ${line}`);
    out.set(m[1] as string, Math.round(Number((m[2] as string).replaceAll(',', '')) * 100));
  }
  return out;
}

beforeAll(async () => {
  db = await createTestDatabase('ledger_export', ledgerMigrations);
  u = createUseCases({ db: db.appDb, logger: createLogger('ledger-export-test', 'silent') });
  dir = mkdtempSync(join(tmpdir(), 'ledger-export-'));
  const random = rng(42);
  const banks = await withTenant(db.appDb, tenant, async (trx) => {
    await ensureChart(trx, ws);
    const specs = [
      ['Operating', '0001', 'depository', 'checking'],
      ['Savings', '0002', 'depository', 'savings'],
      ['Corporate Card', '0003', 'credit', 'credit card'],
    ] as const;
    const out = [];
    for (const [name, mask, type, subtype] of specs)
      out.push(await ensureBankLedgerAccount(trx, ws, { accountId: newId(), name, mask, type, subtype, institutionName: 'Bank' }));
    return out;
  });
  const merchants = ['AWS', 'Gusto', 'WeWork', 'Uber', 'Stripe', 'Delta', 'Staples', 'Zoom', 'Notion', 'Comcast'];
  for (let start = 0; start < TRANSACTIONS; start += 1_000) {
    await withTenant(db.appDb, tenant, async (trx) => {
      for (let i = start; i < Math.min(TRANSACTIONS, start + 1_000); i++) {
        const bank = banks[Math.floor(random() * banks.length)] as (typeof banks)[number];
        const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(random() * 730) * 86_400_000).toISOString().slice(0, 10);
        const cents = Math.floor(random() * 500_000) + 1;
        await applyBankTransaction(
          trx,
          ws,
          create(BankTransactionSchema, {
            id: newId(),
            accountId: bank.bank_account_id as string,
            externalId: `x${i}`,
            amountCents: BigInt(random() < 0.3 ? cents : -cents),
            isoCurrencyCode: 'USD',
            date: day,
            name: `${merchants[i % merchants.length]} #${i}`,
            merchantName: merchants[i % merchants.length],
            version: 1n,
          }),
        );
      }
    });
  }
  // Re-categorise some (reversal + new entry) so the journal holds reversals too.
  const categories = (await u.categories.list(tenant)).filter((c) => !c.account.bank_account_id && c.account.class_group !== 'Transfer');
  const page = await u.transactions.list(tenant, {
    accountIds: [],
    startDate: '',
    endDate: '',
    billerIds: [],
    categoryIds: [],
    description: '',
    flow: '',
    finalization: '',
    order: '',
    take: 100,
  });
  await u.transactions.bulkUpdate(
    tenant,
    page.data.map((t, i) => ({ id: t.id, categoryId: categories[i % categories.length]?.account.id })),
  );
}, 600_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await db?.drop();
});

describe(`hledger reads the export of ${TRANSACTIONS} transactions`, () => {
  it('and its balances for every account, all time, for a period and at the period end, equal the general ledger', async () => {
    const { content } = await u.exports.export(tenant, 'hledger');
    const file = join(dir, 'books.journal');
    writeFileSync(file, content);
    const accounts = (await u.categories.list(tenant)).concat((await u.categories.chart(tenant, '')).chartOfAccounts.filter((c) => c.account.level < 3));
    const nameOf = new Map(accounts.map((c) => [c.account.id, c.path.map((p) => p.name).join(':')]));
    const raw = (classGroup: string, normal: number) => (isDebitNormal(classGroup) ? normal : -normal);

    const compare = async (
      hl: Map<string, number>,
      startDate: string,
      endDate: string,
      pick: (r: { opening: number; change: number; closing: number }) => number,
    ) => {
      const gl = await u.generalLedger.generalLedger(tenant, startDate, endDate);
      const expected = new Map<string, number>();
      for (const r of gl) {
        // hledger has no year-end close: take the general ledger's virtual closing lines (Retained Earnings, credit-normal) back out.
        const cents = pick({
          opening: raw(r.account.class_group, r.openingBalanceCents),
          change: r.debitCents - r.creditCents + r.yearEndCloseCents,
          closing: raw(r.account.class_group, r.closingBalanceCents) + r.yearEndCloseCents,
        });
        if (cents !== 0) expected.set(nameOf.get(r.account.id) as string, cents);
      }
      const actual = new Map([...hl].filter(([, v]) => v !== 0));
      expect(actual).toEqual(expected);
      return expected.size;
    };

    expect(await compare(hledger(file), '', '', (r) => r.change)).toBeGreaterThan(20);
    await compare(hledger(file, '-b', '2024-07-01', '-e', '2024-10-01'), '2024-07-01', '2024-09-30', (r) => r.change);
    await compare(hledger(file, '-b', '2024-03-15', '-e', '2025-02-11'), '2024-03-15', '2025-02-10', (r) => r.change);
    await compare(hledger(file, '-H', '-e', '2025-06-01'), '', '2025-05-31', (r) => r.closing);
    // Trial balance: the whole journal sums to zero.
    expect([...hledger(file).values()].reduce((a, b) => a + b, 0)).toBe(0);
  }, 300_000);

  it('beancount: one open directive per account and every posting on an opened account', async () => {
    const { content } = await u.exports.export(tenant, 'beancount');
    const opened = new Set([...content.matchAll(/^\d{4}-\d{2}-\d{2} open (\S+) USD$/gm)].map((m) => m[1]));
    const used = new Set([...content.matchAll(/^ {2}([A-Z]\S+) {2}-?\d+\.\d{2} USD$/gm)].map((m) => m[1]));
    expect(opened.size).toBeGreaterThan(50);
    for (const account of used) expect(opened.has(account), account).toBe(true);
    for (const account of opened) expect(account).toMatch(/^(Assets|Liabilities|Equity|Income|Expenses)(:[A-Z0-9][A-Za-z0-9-]*)+$/);
  }, 120_000);
});
