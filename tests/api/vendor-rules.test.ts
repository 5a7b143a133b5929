// Vendor rules through the real gateway (issue #17 item 4): every route and message of /vendors/rule-engines,
// a rule categorising the existing editable transactions from its date on (finalized and Transfer ones never),
// new transactions on import, appliedRuleId on each, precedence between two rules, update and delete keeping
// past categorisations, hasRule on the vendor, another workspace's ids 404 (in paths and bodies), a Viewer's
// writes 403, and the books still tying with the reports afterwards.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from './ledger.harness.js';
import { assertBooksTie, startRulesHarness, type RulesHarness } from './vendor-rules.support.js';

const VIEWER_MESSAGE = 'Editing actions are disabled for your account';
const NEEDS_CONDITION = 'A vendor rule needs at least one condition: a description to match, an amount above 0, or a source account';

let h: RulesHarness;
let t: Tenant;
let other: Tenant;
let accountId: string;
let otherAccountId: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the documented JSON, read field by field
let categories: any[];
const cat = (name: string) => categories.find((c) => c.name === name).id as string;
let ids: Record<'uberOld' | 'uber1' | 'uberEats' | 'uberFinal' | 'uberTransfer' | 'coffee' | 'pay' | 'uberNew', string>;
let otherCategoryId: string;
let otherVendorId: string;

/** A bank transaction added through banking's events, and its id in the ledger once booked (amounts and dates are unique here). */
async function add(tn: Tenant, account: string, x: { amountCents: number; date: string; name: string }): Promise<string> {
  await tn.banking.add(account, x);
  return expectEventually(
    async () => {
      const r = await h.api('GET', `/transactions/v2?take=100&startDate=${x.date}&endDate=${x.date}`, { tenant: tn });
      const found = (r.body.data ?? []).find(
        (d: { amount: number; dateTime: string }) => Math.round(d.amount * 100) === x.amountCents && d.dateTime.slice(0, 10) === x.date,
      );
      if (!found) throw new Error(`${x.name} not booked yet`);
      return found.id as string;
    },
    { timeoutMs: 20_000 },
  );
}

async function txn(tn: Tenant, id: string) {
  const r = await h.api('GET', `/transactions/v2/${id}`, { tenant: tn });
  expect(r.status).toBe(200);
  return r.body;
}

beforeAll(async () => {
  h = await startRulesHarness();
  t = h.tenant();
  other = h.tenant();
  for (const tn of [t, other]) await tn.banking.workspaceCreated();
  accountId = await t.banking.link();
  otherAccountId = await other.banking.link();
  ids = {
    uberOld: await add(t, accountId, { amountCents: -1500, date: '2026-08-01', name: 'UBER TRIP 0801' }),
    uber1: await add(t, accountId, { amountCents: -1250, date: '2026-10-01', name: 'Uber trip 1001' }),
    uberEats: await add(t, accountId, { amountCents: -3000, date: '2026-10-03', name: 'UBER EATS' }),
    uberFinal: await add(t, accountId, { amountCents: -2000, date: '2026-10-04', name: 'Uber trip final' }),
    uberTransfer: await add(t, accountId, { amountCents: -4000, date: '2026-10-05', name: 'Uber card payment' }),
    coffee: await add(t, accountId, { amountCents: -500, date: '2026-10-06', name: 'Blue Bottle' }),
    pay: await add(t, accountId, { amountCents: 100000, date: '2026-10-07', name: 'Client payment' }),
    uberNew: '',
  };
  await add(other, otherAccountId, { amountCents: -700, date: '2026-10-01', name: 'Uber elsewhere' });
  await h.transactions(t, 7);
  await h.transactions(other, 1);
  categories = (await h.api('GET', '/categories', { tenant: t })).body.categories;
  otherCategoryId = ((await h.api('GET', '/categories', { tenant: other })).body.categories as { name: string; id: string }[]).find(
    (c) => c.name === 'Travel',
  )!.id;
  // Restricted: one finalized, one marked a transfer by hand (a Transfer-class category).
  const patch = await h.api('PATCH', '/transactions', {
    tenant: t,
    body: {
      transactions: [
        { id: ids.uberFinal, isTxnFinalized: true },
        { id: ids.uberTransfer, categoryId: cat('Credit Card Payments') },
      ],
    },
  });
  expect(patch.status).toBe(200);
  otherVendorId = (await h.api('POST', '/vendors', { tenant: other, body: { name: 'Theirs' } })).body.vendor.id;
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('POST /vendors/rule-engines', () => {
  let ruleId: string;
  let vendorId: string;

  it('creates a rule and applies it at once to the editable transactions from its date on; finalized and Transfer ones are untouched', async () => {
    vendorId = (await h.api('POST', '/vendors', { tenant: t, body: { name: 'Uber' } })).body.vendor.id;
    const before = await txn(t, ids.uberFinal);
    const r = await h.api('POST', '/vendors/rule-engines', {
      tenant: t,
      body: { name: 'Uber rides', vendorId, categoryId: cat('Travel'), ruleApplyDateTime: '2026-09-15', descriptionSign: 'contains', descriptionValue: 'uber' },
    });
    expect(r.status).toBe(201);
    ruleId = r.body.rule.id;
    expect(r.body).toMatchObject({
      message: 'Vendor rule created',
      categorised: 2,
      rule: {
        name: 'Uber rides',
        vendor: { id: vendorId, name: 'Uber' },
        category: { id: cat('Travel'), name: 'Travel' },
        ruleApplyDateTime: '2026-09-15T00:00:00.000Z',
        descriptionSign: 'contains',
        descriptionValue: 'uber',
        amountSign: '',
        amountValue: 0,
        upperAmountValue: 0,
        conditions: ['Description contains "uber"'],
        sourceAccount: null,
        impactedTransactionCount: 2,
      },
    });
    expect((r.body.rule.impactedTransactions as { id: string }[]).map((x) => x.id).sort()).toEqual([ids.uber1, ids.uberEats].sort());
    expect(r.body.rule.impactedTransactions[0]).toMatchObject({
      id: ids.uberEats,
      description: 'UBER EATS',
      amount: -30,
      dateTime: '2026-10-03',
      categoryId: cat('Travel'),
    });
    // A rule's categorisation is creation mode auto (spec: manual or auto), not null.
    for (const id of [ids.uber1, ids.uberEats])
      expect(await txn(t, id)).toMatchObject({ category: { id: cat('Travel') }, appliedRuleId: ruleId, vendorId, creationMode: 'auto' });
    // Before the rule's date, finalized, a transfer, not matching: untouched.
    expect(await txn(t, ids.uberOld)).toMatchObject({ category: { name: 'Uncategorised Expense' }, appliedRuleId: null, creationMode: null });
    expect(await txn(t, ids.uberFinal)).toMatchObject({ category: before.category, appliedRuleId: null, isTransactionFinalized: true });
    expect(await txn(t, ids.uberTransfer)).toMatchObject({ category: { name: 'Credit Card Payments' }, appliedRuleId: null });
    expect(await txn(t, ids.coffee)).toMatchObject({ category: { name: 'Uncategorised Expense' }, appliedRuleId: null });
    // List rows carry appliedRuleId too; the vendor now has a rule.
    const list = await h.api('GET', '/transactions/v2?take=100', { tenant: t });
    expect(list.body.data.find((x: { id: string }) => x.id === ids.uber1).appliedRuleId).toBe(ruleId);
    expect((await h.api('GET', `/vendors/${vendorId}`, { tenant: t })).body.hasRule).toBe(true);
    // Re-categorisation is a reversal and a new entry: the audit trail says which rule.
    const logs = await h.api('GET', `/transactions/audit-logs?transactionId=${ids.uber1}`, { tenant: t });
    expect(logs.status).toBe(200);
    expect(JSON.stringify(logs.body)).toContain(ruleId);
  });

  it('categorises a new transaction on import, and the books still tie with the reports', async () => {
    const id = await add(t, accountId, { amountCents: -777, date: '2026-10-10', name: 'Uber ride home' });
    await h.transactions(t, 8);
    await expectEventually(
      async () => expect(await txn(t, id)).toMatchObject({ category: { id: cat('Travel') }, appliedRuleId: ruleId, creationMode: 'auto' }),
      { timeoutMs: 20_000 },
    );
    ids.uberNew = id;
    const got = await h.api('GET', `/vendors/rule-engines/${ruleId}`, { tenant: t });
    expect(got.status).toBe(200);
    expect(got.body.impactedTransactionCount).toBe(3);
    await assertBooksTie(h, t, '2026-01-01', '2026-12-31');
  });

  it('the more specific of two matching rules wins, whichever was made first', async () => {
    const specific = await h.api('POST', '/vendors/rule-engines', {
      tenant: t,
      body: {
        name: 'Uber Eats',
        categoryId: cat('Meals and Entertainment'),
        ruleApplyDateTime: '2026-01-01',
        descriptionSign: 'contains',
        descriptionValue: 'uber eats',
        amountSign: 'greater_than',
        amountValue: 10,
      },
    });
    expect(specific.status).toBe(201);
    expect(specific.body).toMatchObject({
      categorised: 1,
      rule: { conditions: ['Description contains "uber eats"', 'Amount is more than 10.00'], impactedTransactionCount: 1 },
    });
    expect(await txn(t, ids.uberEats)).toMatchObject({ category: { id: cat('Meals and Entertainment') }, appliedRuleId: specific.body.rule.id });
    // Re-applying the broader rule (PATCH with nothing changed) does not take it back.
    const again = await h.api('PATCH', `/vendors/rule-engines/${ruleId}`, { tenant: t, body: {} });
    expect(again).toMatchObject({ status: 200, body: { message: 'Vendor rule updated', categorised: 0 } });
    expect(await txn(t, ids.uberEats)).toMatchObject({ category: { id: cat('Meals and Entertainment') } });
    const rules = await h.api('GET', '/vendors/rule-engines', { tenant: t });
    expect(rules.status).toBe(200);
    expect(rules.body.meta).toMatchObject({ page: 1, take: 20, itemCount: 2 });
    expect(rules.body.data.map((r: { name: string }) => r.name)).toEqual(['Uber Eats', 'Uber rides']);
    const byVendor = await h.api('GET', `/vendors/rule-engines?vendorId=${vendorId}`, { tenant: t });
    expect(byVendor.body.data.map((r: { id: string }) => r.id)).toEqual([ruleId]);
    await h.api('DELETE', `/vendors/rule-engines/${specific.body.rule.id}`, { tenant: t });
  });

  it('PATCH changes only the fields sent and applies again; what it categorised before and no longer matches keeps its category', async () => {
    const r = await h.api('PATCH', `/vendors/rule-engines/${ruleId}`, {
      tenant: t,
      body: { amountSign: 'between', amountValue: 10, upperAmountValue: 13, ruleApplyDateTime: '2026-07-01' },
    });
    expect(r.status).toBe(200);
    expect(r.body.rule).toMatchObject({
      name: 'Uber rides',
      descriptionValue: 'uber',
      amountSign: 'between',
      amountValue: 10,
      upperAmountValue: 13,
      conditions: ['Description contains "uber"', 'Amount is between 10.00 and 13.00'],
    });
    // 12.50 matched already; UBER TRIP 0801 (15.00) is outside the range; the 7.77 ride and UBER EATS (30.00) keep what they had.
    expect(r.body.categorised).toBe(0);
    expect(await txn(t, ids.uberNew)).toMatchObject({ category: { id: cat('Travel') }, appliedRuleId: ruleId });
    const wider = await h.api('PATCH', `/vendors/rule-engines/${ruleId}`, { tenant: t, body: { upperAmountValue: 16 } });
    expect(wider.body.categorised).toBe(1);
    expect(await txn(t, ids.uberOld)).toMatchObject({ category: { id: cat('Travel') }, appliedRuleId: ruleId });
  });

  it("a source condition alone is a rule; another workspace's source is a 404 naming sourceId", async () => {
    const r = await h.api('POST', '/vendors/rule-engines', {
      tenant: t,
      body: { name: 'Everything from checking', categoryId: cat('Office Supplies'), ruleApplyDateTime: '2026-10-06', sourceId: accountId },
    });
    expect(r.status).toBe(201);
    expect(r.body.rule).toMatchObject({ sourceAccount: { id: accountId, name: 'Checking ••1234' }, conditions: ['Source account is Checking ••1234'] });
    // Coffee (10-06) is categorised; the payment (10-07, +1000) too: a source rule takes both directions.
    expect(await txn(t, ids.coffee)).toMatchObject({ category: { id: cat('Office Supplies') } });
    const gone = await h.api('DELETE', `/vendors/rule-engines/${r.body.rule.id}`, { tenant: t });
    expect(gone).toMatchObject({ status: 200, body: { deleted: true } });
    const theirs = await h.api('POST', '/vendors/rule-engines', {
      tenant: t,
      body: { name: 'X', categoryId: cat('Travel'), ruleApplyDateTime: '2026-01-01', sourceId: otherAccountId },
    });
    expect(theirs).toMatchObject({ status: 404, body: { errors: [{ field: 'sourceId' }] } });
  });

  it('refuses bad input with a 400 naming the field, in words a user understands', async () => {
    const base = { name: 'R', categoryId: cat('Travel'), ruleApplyDateTime: '2026-01-01', descriptionValue: 'x' };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...base, descriptionValue: '   ' }, 'descriptionValue', NEEDS_CONDITION],
      [{ ...base, descriptionValue: '', amountValue: 0 }, 'descriptionValue', NEEDS_CONDITION],
      [{ name: 'R', categoryId: cat('Travel'), ruleApplyDateTime: '2026-01-01' }, 'descriptionValue', NEEDS_CONDITION],
      [{ ...base, name: '  ' }, 'name', 'Name is required'],
      [{ ...base, categoryId: undefined }, 'categoryId', 'Choose the category the rule gives its transactions'],
      [{ ...base, categoryId: 'nope' }, 'categoryId', 'categoryId must be a UUID'],
      [{ ...base, vendorId: 'nope' }, 'vendorId', 'vendorId must be a UUID'],
      [{ ...base, ruleApplyDateTime: undefined }, 'ruleApplyDateTime', 'Choose the date the rule applies from'],
      [{ ...base, ruleApplyDateTime: '2026-02-30' }, 'ruleApplyDateTime', 'ruleApplyDateTime must be a date (YYYY-MM-DD) or a date and time'],
      [{ ...base, descriptionSign: 'starts_with' }, 'descriptionSign', 'descriptionSign must be equals or contains'],
      [{ ...base, amountSign: 'about', amountValue: 5 }, 'amountSign', 'amountSign must be equals, greater_than, less_than or between'],
      [{ ...base, amountValue: -5 }, 'amountValue', 'amountValue cannot be negative'],
      [
        { ...base, amountSign: 'between', amountValue: 20, upperAmountValue: 20 },
        'upperAmountValue',
        'For an amount between two values, upperAmountValue must be greater than amountValue',
      ],
      [
        { ...base, amountSign: 'between', amountValue: 20 },
        'upperAmountValue',
        'For an amount between two values, upperAmountValue must be greater than amountValue',
      ],
      [{ ...base, amountValue: 1.234 }, 'amountValue', 'amountValue must have at most 2 decimal places'],
    ];
    for (const [body, field, message] of cases) {
      const r = await h.api('POST', '/vendors/rule-engines', { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors, JSON.stringify(body)).toContainEqual(expect.objectContaining({ field, message }));
    }
    // A PATCH that removes the last condition is refused the same way, and changes nothing.
    const rules = (await h.api('GET', '/vendors/rule-engines', { tenant: t })).body.data;
    const r = await h.api('PATCH', `/vendors/rule-engines/${rules[0].id}`, { tenant: t, body: { descriptionValue: '', amountValue: 0 } });
    expect(r).toMatchObject({ status: 400, body: { errors: [{ field: 'descriptionValue', message: NEEDS_CONDITION }] } });
    expect((await h.api('GET', `/vendors/rule-engines/${rules[0].id}`, { tenant: t })).body.descriptionValue).toBe('uber');
  });

  it("another workspace's rule, vendor or category is a 404 naming the field; nothing is made", async () => {
    const count = async () => (await h.api('GET', '/vendors/rule-engines', { tenant: t })).body.meta.itemCount as number;
    const n = await count();
    const base = { name: 'R', categoryId: cat('Travel'), ruleApplyDateTime: '2026-01-01', descriptionValue: 'x' };
    expect(await h.api('POST', '/vendors/rule-engines', { tenant: t, body: { ...base, vendorId: otherVendorId } })).toMatchObject({
      status: 404,
      body: { errors: [{ field: 'vendorId' }] },
    });
    expect(await h.api('POST', '/vendors/rule-engines', { tenant: t, body: { ...base, categoryId: otherCategoryId } })).toMatchObject({
      status: 404,
      body: { errors: [{ field: 'categoryId' }] },
    });
    // Another workspace's id answers 404 before the fields' refusals (here an unknown sign and no name).
    expect(
      await h.api('POST', '/vendors/rule-engines', { tenant: t, body: { ...base, name: '', descriptionSign: 'x', categoryId: otherCategoryId } }),
    ).toMatchObject({ status: 404, body: { errors: [{ field: 'categoryId' }] } });
    expect(
      await h.api('POST', '/vendors/rule-engines', { tenant: t, body: { ...base, name: '', descriptionSign: 'x', vendorId: otherVendorId } }),
    ).toMatchObject({ status: 404, body: { errors: [{ field: 'vendorId' }] } });
    expect(
      await h.api('POST', '/vendors/rule-engines', { tenant: t, body: { ...base, name: '', descriptionSign: 'x', sourceId: otherAccountId } }),
    ).toMatchObject({ status: 404, body: { errors: [{ field: 'sourceId' }] } });
    expect(await count()).toBe(n);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const r = await h.api(method, `/vendors/rule-engines/${ruleId}`, { tenant: other, body });
      expect(r, method).toMatchObject({ status: 404, body: { errors: [{ field: 'id', message: 'Vendor rule not found' }] } });
    }
    expect((await h.api('GET', '/vendors/rule-engines', { tenant: other })).body.data).toEqual([]);
    expect(await h.api('GET', `/vendors/rule-engines?vendorId=${otherVendorId}`, { tenant: t })).toMatchObject({
      status: 404,
      body: { errors: [{ field: 'vendorId' }] },
    });
    // appliedRuleId inside PATCH /transactions: another workspace's rule is a 404 naming it; our own is accepted.
    const theirs = await h.api('PATCH', '/transactions', {
      tenant: other,
      body: { transactions: [{ id: (await h.transactions(other, 1)).data[0].id, appliedRuleId: ruleId }] },
    });
    expect(theirs).toMatchObject({ status: 404, body: { errors: [{ field: 'transactions.0.appliedRuleId' }] } });
    const ours = await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: [{ id: ids.coffee, appliedRuleId: ruleId }] } });
    expect(ours.status).toBe(200);
    expect(await h.api('GET', '/vendors/rule-engines/not-a-uuid', { tenant: t })).toMatchObject({ status: 400, body: { errors: [{ field: 'id' }] } });
  });

  it('a Viewer reads but cannot create, change or delete', async () => {
    const viewer = { tenant: t, token: t.viewerToken };
    expect((await h.api('GET', '/vendors/rule-engines', viewer)).status).toBe(200);
    expect((await h.api('GET', `/vendors/rule-engines/${ruleId}`, viewer)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/vendors/rule-engines', { name: 'R', categoryId: cat('Travel'), ruleApplyDateTime: '2026-01-01', descriptionValue: 'x' }],
      ['PATCH', `/vendors/rule-engines/${ruleId}`, { name: 'R' }],
      ['DELETE', `/vendors/rule-engines/${ruleId}`, undefined],
    ] as const) {
      const r = await h.api(method, path, { ...viewer, body });
      expect(r, `${method} ${path}`).toMatchObject({ status: 403, body: { message: VIEWER_MESSAGE } });
    }
  });

  it('DELETE keeps what the rule categorised and says so; the rule is gone and the vendor has no rule', async () => {
    const impacted = (await h.api('GET', `/vendors/rule-engines/${ruleId}`, { tenant: t })).body.impactedTransactionCount as number;
    expect(impacted).toBeGreaterThan(0);
    const r = await h.api('DELETE', `/vendors/rule-engines/${ruleId}`, { tenant: t });
    expect(r).toMatchObject({
      status: 200,
      body: { deleted: true, keptCategorisations: impacted, message: `Vendor rule deleted. The ${impacted} transactions it categorised keep their category.` },
    });
    expect(await txn(t, ids.uber1)).toMatchObject({ category: { id: cat('Travel') }, appliedRuleId: ruleId });
    expect((await h.api('GET', `/vendors/rule-engines/${ruleId}`, { tenant: t })).status).toBe(404);
    expect((await h.api('GET', `/vendors/${vendorId}`, { tenant: t })).body.hasRule).toBe(false);
    // A new transaction on import is no longer categorised by it.
    const id = await add(t, accountId, { amountCents: -1100, date: '2026-10-12', name: 'Uber late' });
    await h.transactions(t, 9);
    expect(await txn(t, id)).toMatchObject({ category: { name: 'Uncategorised Expense' }, appliedRuleId: null });
    // A rule that categorised one transaction says so in the singular.
    const one = await h.api('POST', '/vendors/rule-engines', {
      tenant: t,
      body: { name: 'Late rides', categoryId: cat('Travel'), ruleApplyDateTime: '2026-01-01', descriptionSign: 'equals', descriptionValue: 'Uber late' },
    });
    expect(one.body.rule.impactedTransactionCount).toBe(1);
    expect((await h.api('DELETE', `/vendors/rule-engines/${one.body.rule.id}`, { tenant: t })).body).toMatchObject({
      keptCategorisations: 1,
      message: 'Vendor rule deleted. The 1 transaction it categorised keeps its category.',
    });
    await assertBooksTie(h, t, '2026-01-01', '2026-12-31');
  });
});
