// Property (issue #17 "Must show"): vendor rules created in any order on random transactions give every
// transaction the category a straightforward reference evaluation gives it (per transaction: the rules that
// match it, the first by the documented precedence); finalized and Transfer transactions are never touched
// (same category, same entry, no appliedRuleId); and the books still tie with the reports afterwards.
// The whole stack: gateway → parties → ledger (one set-based ApplyVendorRule per rule) → reporting.
import fc from 'fast-check';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBooksTie, startRulesHarness, type RulesHarness } from './vendor-rules.support.js';

let h: RulesHarness;
beforeAll(async () => {
  h = await startRulesHarness();
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const WORDS = ['uber', 'eats', 'coffee', 'amazon', 'shell'] as const;
const CATEGORIES = ['Travel', 'Meals and Entertainment', 'Office Supplies', 'Advertising and Marketing'] as const;
const day = (d: number) => `2026-10-${String(d).padStart(2, '0')}`;

interface Txn {
  name: string;
  amountCents: number;
  day: number;
  account: 0 | 1;
  restricted: 'none' | 'finalized' | 'transfer';
}
interface Rule {
  category: (typeof CATEGORIES)[number];
  applyDay: number;
  description: { sign: 'equals' | 'contains'; value: string } | null;
  amount: { sign: 'equals' | 'greater_than' | 'less_than' | 'between'; cents: number; upper: number } | null;
  source: 0 | 1 | null;
}

const nameArb = fc.tuple(fc.constantFrom(...WORDS), fc.option(fc.constantFrom(...WORDS), { nil: undefined }), fc.boolean()).map(([a, b, upper]) => {
  const n = b ? `${a} ${b}` : a;
  return upper ? n.toUpperCase() : n;
});
const txnArb = fc.record({
  name: nameArb,
  amountCents: fc.integer({ min: 1, max: 4000 }).chain((c) => fc.constantFrom(-c, -c, c)),
  day: fc.integer({ min: 1, max: 20 }),
  account: fc.constantFrom<0 | 1>(0, 1),
  restricted: fc.constantFrom<Txn['restricted']>('none', 'none', 'none', 'none', 'finalized', 'transfer'),
});
const ruleArb: fc.Arbitrary<Rule> = fc
  .record({
    category: fc.constantFrom(...CATEGORIES),
    applyDay: fc.integer({ min: 1, max: 8 }),
    description: fc.option(
      fc.record({
        sign: fc.constantFrom<'equals' | 'contains'>('equals', 'contains'),
        value: fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom('uber eats', 'UBER', 'ee')),
      }),
      { nil: null, freq: 2 },
    ),
    amount: fc.option(
      fc.record({
        sign: fc.constantFrom<'equals' | 'greater_than' | 'less_than' | 'between'>('equals', 'greater_than', 'less_than', 'less_than', 'between', 'between'),
        cents: fc.integer({ min: 1, max: 4000 }),
        upper: fc.integer({ min: 500, max: 3000 }),
      }),
      { nil: null, freq: 2 },
    ),
    source: fc.option(fc.constantFrom<0 | 1>(0, 1), { nil: null, freq: 2 }),
  })
  .filter((r) => r.description !== null || r.amount !== null || r.source !== null);

const inputArb = fc
  .record({
    // Unique absolute amounts: a transaction is found again in the list by its amount, and no two are a transfer pair.
    txns: fc.uniqueArray(txnArb, { minLength: 6, maxLength: 14, selector: (t) => Math.abs(t.amountCents) }),
    rules: fc.array(ruleArb, { minLength: 2, maxLength: 5 }),
  })
  .chain((x) =>
    fc
      .shuffledSubarray(
        x.rules.map((_, i) => i),
        { minLength: x.rules.length, maxLength: x.rules.length },
      )
      .map((order) => ({ ...x, order })),
  );

/** The reference: a rule's conditions read literally (descriptions case-insensitive, amounts by absolute value). */
function matches(r: Rule & { sourceId: string | null }, t: Txn, accountIds: string[]): boolean {
  if (t.day < r.applyDay) return false;
  if (r.description) {
    const name = t.name.toLowerCase();
    const value = r.description.value.toLowerCase();
    if (r.description.sign === 'equals' ? name.trim() !== value.trim() : !name.includes(value)) return false;
  }
  if (r.amount) {
    const a = Math.abs(t.amountCents);
    const ok = {
      equals: a === r.amount.cents,
      greater_than: a > r.amount.cents,
      less_than: a < r.amount.cents,
      between: a >= r.amount.cents && a <= r.amount.cents + r.amount.upper,
    }[r.amount.sign];
    if (!ok) return false;
  }
  return r.sourceId === null || r.sourceId === accountIds[t.account];
}

/** The documented precedence (services/ledger/README.md "Vendor rules"), written out plainly. */
function precedes(a: { rule: Rule; id: string; name: string; at: string }, b: typeof a): number {
  const count = (r: Rule) => Number(!!r.description) + Number(!!r.amount) + Number(r.source !== null);
  const desc = (r: Rule) => (r.description?.sign === 'equals' ? 0 : r.description ? 1 : 2);
  const amt = (r: Rule) => (r.amount?.sign === 'equals' ? 0 : r.amount ? 1 : 2);
  return (
    count(b.rule) - count(a.rule) ||
    desc(a.rule) - desc(b.rule) ||
    amt(a.rule) - amt(b.rule) ||
    (a.at === b.at ? 0 : a.at > b.at ? -1 : 1) ||
    (a.name === b.name ? 0 : Buffer.from(a.name) < Buffer.from(b.name) ? -1 : 1) ||
    (a.id < b.id ? -1 : 1)
  );
}

it('rules in any order categorise exactly as the reference does; restricted transactions are never touched; the books tie', async () => {
  // Not vacuous: over the runs, transactions were categorised by a rule, some by the winner of two or more.
  const seen = { categorised: 0, contested: 0, restricted: 0 };
  await fc.assert(
    fc.asyncProperty(inputArb, async ({ txns, rules, order }) => {
      const t = h.tenant();
      await t.banking.workspaceCreated();
      const accountIds = [await t.banking.link({ name: 'Checking', mask: '0001' }), await t.banking.link({ name: 'Savings', mask: '0002' })];
      for (const x of txns) await t.banking.add(accountIds[x.account] as string, { amountCents: x.amountCents, date: day(x.day), name: x.name });
      const listed = await h.transactions(t, txns.length);
      const cats = new Map(((await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; name: string }[]).map((c) => [c.name, c.id]));
      const idOf = (x: Txn) => (listed.data as { id: string; amount: number }[]).find((d) => Math.round(d.amount * 100) === x.amountCents)!.id;

      const restrictions = txns
        .filter((x) => x.restricted !== 'none')
        .map((x) => (x.restricted === 'finalized' ? { id: idOf(x), isTxnFinalized: true } : { id: idOf(x), categoryId: cats.get('Credit Card Payments') }));
      if (restrictions.length > 0) expect((await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: restrictions } })).status).toBe(200);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the documented JSON
      const before = new Map(((await h.api('GET', '/transactions/v2?take=100', { tenant: t })).body.data as any[]).map((d) => [d.id, d]));

      const made: { rule: Rule; id: string; name: string; at: string; sourceId: string | null }[] = [];
      for (const i of order) {
        const r = rules[i] as Rule;
        const sourceId = r.source === null ? null : (accountIds[r.source] as string);
        const body = {
          name: `Rule ${i}`,
          categoryId: cats.get(r.category),
          ruleApplyDateTime: day(r.applyDay),
          ...(r.description ? { descriptionSign: r.description.sign, descriptionValue: r.description.value } : {}),
          ...(r.amount
            ? {
                amountSign: r.amount.sign,
                amountValue: r.amount.cents / 100,
                ...(r.amount.sign === 'between' ? { upperAmountValue: (r.amount.cents + r.amount.upper) / 100 } : {}),
              }
            : {}),
          ...(sourceId ? { sourceId } : {}),
        };
        const res = await h.api('POST', '/vendors/rule-engines', { tenant: t, body });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        made.push({ rule: r, id: res.body.rule.id, name: body.name, at: res.body.rule.ruleApplyDateTime, sourceId });
      }

      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the documented JSON
      const after = new Map(((await h.api('GET', '/transactions/v2?take=100', { tenant: t })).body.data as any[]).map((d) => [d.id, d]));
      for (const x of txns) {
        const id = idOf(x);
        const was = before.get(id);
        const now = after.get(id);
        if (x.restricted !== 'none') {
          expect(now.category.id, `${x.restricted} ${x.name}`).toBe(was.category.id);
          expect(now.debitJournalId).toBe(was.debitJournalId);
          expect(now.appliedRuleId).toBeNull();
          seen.restricted++;
          continue;
        }
        const matching = made.filter((m) => matches({ ...m.rule, sourceId: m.sourceId }, x, accountIds)).sort(precedes);
        const winner = matching[0];
        if (winner) seen.categorised++;
        if (matching.length > 1) seen.contested++;
        expect(now.category.id, `${x.name} ${x.amountCents} ${day(x.day)}`).toBe(winner ? cats.get(winner.rule.category) : was.category.id);
        expect(now.appliedRuleId).toBe(winner ? winner.id : null);
      }
      await expectEventually(() => assertBooksTie(h, t, '2026-01-01', '2026-12-31'), { timeoutMs: 30_000 });
    }),
    { numRuns: 12 },
  );
  expect(seen.categorised).toBeGreaterThan(0);
  expect(seen.contested).toBeGreaterThan(0);
  expect(seen.restricted).toBeGreaterThan(0);
}, 600_000);
