// Learned categorisation end to end (issue #17 item 7) with the real ledger, parties and reporting services, NATS
// and the gateway: history categorised by hand (creation mode manual) → a new import → the confident suggestion
// applied (creation mode auto) set-based through the ledger; a merchant the history disagrees on → a suggestion
// only, accepted by hand; GET /jobs/categorization; a correction changes the next suggestion at once; the books
// still tie with the reports.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTO_APPLY_THRESHOLD } from '../../services/parties/src/domain/categorisation.js';
import type { Tenant } from './ledger.harness.js';
import { assertBooksTie, startRulesHarness, type RulesHarness } from './vendor-rules.support.js';

let h: RulesHarness;
let t: Tenant;
let accountId: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the documented JSON, read field by field
let categories: any[];
const cat = (name: string) => categories.find((c) => c.name === name).id as string;
let count = 0;

/** A bank transaction added through banking's events, and its id once the ledger booked it (amount + date unique here). */
async function add(x: { amountCents: number; date: string; name: string; merchantName?: string }): Promise<string> {
  await t.banking.add(accountId, x);
  count++;
  return expectEventually(
    async () => {
      const r = await h.api('GET', `/transactions/v2?take=100&startDate=${x.date}&endDate=${x.date}`, { tenant: t });
      const found = (r.body.data ?? []).find((d: { amount: number }) => Math.round(d.amount * 100) === x.amountCents);
      if (!found) throw new Error(`${x.name} not booked yet`);
      return found.id as string;
    },
    { timeoutMs: 20_000 },
  );
}

async function txn(id: string) {
  const r = await h.api('GET', `/transactions/v2/${id}`, { tenant: t });
  expect(r.status).toBe(200);
  return r.body;
}

/** What the parties service's model would suggest now (it learns from the ledger's events, a moment later). */
const suggestion = (description: string, amountCents: number) =>
  h.parties.categorisation.suggest(t.workspaceId, { merchantName: '', description, amountCents, bankAccountId: accountId });

const history = {
  coffee: [
    ['SQ *BLUE BOTTLE 1101', -525, '2026-06-02'],
    ['SQ *BLUE BOTTLE 1102', -610, '2026-06-09'],
    ['BLUE BOTTLE COFFEE #12', -480, '2026-06-16'],
    ['SQ *BLUE BOTTLE 1104', -700, '2026-06-23'],
  ],
  target: [
    ['TARGET 0001', -4200, '2026-07-01'],
    ['TARGET 0002', -4300, '2026-07-08'],
    ['TARGET 0003', -4100, '2026-07-15'],
    ['TARGET 0004', -4250, '2026-07-22'],
  ],
} as const;
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await startRulesHarness();
  t = h.tenant();
  await t.banking.workspaceCreated();
  accountId = await t.banking.link();
  categories = (await h.api('GET', '/categories', { tenant: t })).body.categories;
  for (const [name, amountCents, date] of [...history.coffee, ...history.target]) ids[name] = await add({ amountCents, date, name });
  await h.transactions(t, count);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('learned categorisation', () => {
  it('a categorisation by hand is creation mode manual, and nothing the model had no history for was applied', async () => {
    for (const name of Object.keys(ids)) expect(await txn(ids[name]!)).toMatchObject({ creationMode: null, category: { name: 'Uncategorised Expense' } });
    const items = [
      ...history.coffee.map(([name]) => ({ id: ids[name], categoryId: cat('Meals and Entertainment') })),
      // The same merchant, the same amounts, two categories: the model must not apply either.
      ...history.target.map(([name], i) => ({ id: ids[name], categoryId: cat(i % 2 ? 'Office Supplies' : 'Meals and Entertainment') })),
    ];
    const r = await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: items } });
    expect(r.status).toBe(200);
    for (const x of r.body.transactions) expect(x).toMatchObject({ creationMode: 'manual', suggestion: null });
    // The model learns from the ledger's transaction.categorized.
    await expectEventually(async () => expect(await suggestion('SQ *BLUE BOTTLE 7777', -600)).toMatchObject({ categoryId: cat('Meals and Entertainment') }), {
      timeoutMs: 20_000,
    });
    const s = await suggestion('SQ *BLUE BOTTLE 7777', -600);
    expect(s!.confidence).toBeGreaterThanOrEqual(AUTO_APPLY_THRESHOLD);
    await expectEventually(async () => expect((await suggestion('TARGET 9', -4200))?.confidence ?? 1).toBeLessThan(AUTO_APPLY_THRESHOLD), {
      timeoutMs: 20_000,
    });
  });

  it('a new import: the confident suggestion is applied (creation mode auto), the unsure one only shown; the queue answers', async () => {
    ids.newCoffee = await add({ amountCents: -575, date: '2026-08-03', name: 'SQ *BLUE BOTTLE 2201' });
    ids.newTarget = await add({ amountCents: -4150, date: '2026-08-04', name: 'TARGET 0042' });
    await expectEventually(
      async () =>
        expect(await txn(ids.newCoffee!)).toMatchObject({
          creationMode: 'auto',
          category: { id: cat('Meals and Entertainment') },
          suggestion: null,
          appliedRuleId: null,
        }),
      { timeoutMs: 30_000 },
    );
    const unsure = await expectEventually(
      async () => {
        const x = await txn(ids.newTarget!);
        if (!x.suggestion) throw new Error('no suggestion yet');
        return x;
      },
      { timeoutMs: 30_000 },
    );
    expect(unsure).toMatchObject({ creationMode: null, category: { name: 'Uncategorised Expense' } });
    expect([cat('Meals and Entertainment'), cat('Office Supplies')]).toContain(unsure.suggestion.categoryId);
    expect(unsure.suggestion.confidence).toBeLessThan(AUTO_APPLY_THRESHOLD);
    expect(unsure.suggestion.categoryName).toBe(categories.find((c) => c.id === unsure.suggestion.categoryId).name);
    // The list carries the same fields.
    const list = await h.api('GET', '/transactions/v2?take=100', { tenant: t });
    expect(list.body.data.find((x: { id: string }) => x.id === ids.newCoffee)).toMatchObject({ creationMode: 'auto', suggestion: null });
    expect(list.body.data.find((x: { id: string }) => x.id === ids.newTarget).suggestion).toMatchObject({ categoryId: unsure.suggestion.categoryId });

    const jobs = await h.api('GET', `/jobs/categorization?transactions=${ids.newCoffee},${ids.newTarget},${ids[history.coffee[0][0]]}`, { tenant: t });
    expect(jobs.status).toBe(200);
    expect(jobs.body.transactions).toHaveLength(3);
    for (const s of jobs.body.transactions) expect(s.categoryState).toBe('categorized');
    const done = jobs.body.jobs.filter((j: { status: string }) => j.status === 'completed');
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(jobs.body.jobs[0]).toMatchObject({ type: 'categorization', status: 'completed' });
    const applied = jobs.body.jobs.reduce((n: number, j: { applied: number }) => n + j.applied, 0);
    const suggested = jobs.body.jobs.reduce((n: number, j: { suggested: number }) => n + j.suggested, 0);
    expect(applied).toBe(1);
    expect(suggested).toBe(1);
    const waiting = await h.api('GET', '/jobs/categorization?status=waiting', { tenant: t });
    expect(waiting.status).toBe(200);
    expect(waiting.body.jobs).toEqual([]);
  });

  it("refuses a transactions list that is not ids, naming the field; another workspace's transaction is a 404", async () => {
    const r = await h.api('GET', '/jobs/categorization?transactions=nope', { tenant: t });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.errors)).toContain('transactions');
    const bad = await h.api('GET', '/jobs/categorization?status=nope', { tenant: t });
    expect(bad.status).toBe(400);
    const other = h.tenant();
    await other.banking.workspaceCreated();
    const otherAccount = await other.banking.link();
    await other.banking.add(otherAccount, { amountCents: -999, date: '2026-08-01', name: 'Elsewhere' });
    const theirs = (await h.transactions(other, 1)).data[0].id as string;
    const cross = await h.api('GET', `/jobs/categorization?transactions=${ids.newCoffee},${theirs}`, { tenant: t });
    expect(cross.status).toBe(404);
    expect(JSON.stringify(cross.body)).toContain('transactions');
    // Their own transaction answers them, and their queue is theirs alone.
    const own = await h.api('GET', `/jobs/categorization?transactions=${theirs}`, { tenant: other });
    expect(own.status).toBe(200);
    expect(own.body.transactions).toEqual([{ id: theirs, categoryState: expect.stringMatching(/^categori(zed|zing)$/) }]);
    const mine = (await h.api('GET', '/jobs/categorization', { tenant: t })).body.jobs.map((j: { id: string }) => j.id);
    for (const j of (await h.api('GET', '/jobs/categorization', { tenant: other })).body.jobs) expect(mine).not.toContain(j.id);
  });

  it('accepting a suggestion is a categorisation by hand', async () => {
    const x = await txn(ids.newTarget!);
    const r = await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: [{ id: ids.newTarget, categoryId: x.suggestion.categoryId }] } });
    expect(r.status).toBe(200);
    expect(r.body.transactions[0]).toMatchObject({ creationMode: 'manual', suggestion: null, category: { id: x.suggestion.categoryId } });
  });

  it('a correction changes the next suggestion for that merchant at once', async () => {
    const r = await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: [{ id: ids.newCoffee, categoryId: cat('Office Supplies') }] } });
    expect(r.status).toBe(200);
    expect(r.body.transactions[0]).toMatchObject({ creationMode: 'manual', category: { id: cat('Office Supplies') } });
    // As soon as the correction is learnt (one event), the merchant's next suggestion is the corrected category.
    await expectEventually(async () => expect(await suggestion('SQ *BLUE BOTTLE 3301', -590)).toMatchObject({ categoryId: cat('Office Supplies') }), {
      timeoutMs: 20_000,
    });
    // One correction against four earlier choices: shown, not applied, until the user confirms it.
    const next = await add({ amountCents: -590, date: '2026-08-10', name: 'SQ *BLUE BOTTLE 3301' });
    await expectEventually(async () => expect(await txn(next)).toMatchObject({ creationMode: null, suggestion: { categoryId: cat('Office Supplies') } }), {
      timeoutMs: 30_000,
    });
  });

  it("an import booked to its merchant's category (PATCH /billers) is creation mode auto, as a rule's; none is asked of the model", async () => {
    const first = await add({ amountCents: -13_300, date: '2026-08-12', name: 'ACME TRAVEL DESK 7781', merchantName: 'Acme Travel Desk' });
    expect(await txn(first)).toMatchObject({ creationMode: null, category: { name: 'Uncategorised Expense' } });
    const biller = (await h.api('GET', '/billers', { tenant: t })).body.billers.find((b: { name: string }) => b.name === 'Acme Travel Desk');
    const r = await h.api('PATCH', `/billers/${biller.id}`, { tenant: t, body: { categoryId: cat('Travel') } });
    expect(r.body).toMatchObject({ message: 'Category updated successfully.', updatedTransactions: 1 });
    // The person's choice re-booked the first one: manual.
    expect(await txn(first)).toMatchObject({ creationMode: 'manual', category: { id: cat('Travel') } });
    // The next import of the merchant is booked to the biller's category on arrival: auto, no suggestion, no rule.
    const next = await add({ amountCents: -14_100, date: '2026-08-19', name: 'ACME TRAVEL DESK 7790', merchantName: 'Acme Travel Desk' });
    expect(await txn(next)).toMatchObject({ creationMode: 'auto', category: { id: cat('Travel') }, appliedRuleId: null, suggestion: null });
    // It was not left for the model: categorized on arrival.
    const jobs = await h.api('GET', `/jobs/categorization?transactions=${next}`, { tenant: t });
    expect(jobs.status).toBe(200);
    expect(jobs.body.transactions).toEqual([expect.objectContaining({ categoryState: 'categorized' })]);
  });

  it('the profit and loss still equals the ledger', async () => {
    await assertBooksTie(h, t, '2026-01-01', '2026-12-31');
  });
});
