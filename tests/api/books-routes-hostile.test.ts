// The routes issue #12 added, driven by their schemas in /docs/json: hostile input (NUL bytes, over-long
// strings, huge and negative numbers, wrong types), another workspace's ids inside the query or the body, and
// a Viewer's writes. Every answer is a 4xx in the documented error shape, never a 5xx, and nothing changes.
// (A walker over every route of /docs/json is issue #15's; this one covers the routes this issue added.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerHarness, type LedgerApiHarness, type Tenant } from './ledger.harness.js';

const ROUTES: { method: 'GET' | 'POST' | 'PATCH'; path: string }[] = [
  { method: 'GET', path: '/transactions/transfer-candidates' },
  { method: 'POST', path: '/transactions/pair-transfer' },
  { method: 'POST', path: '/transactions/unpair-transfer' },
  { method: 'PATCH', path: '/categories/fiscal-year' },
];

let h: LedgerApiHarness;
let t: Tenant;
let other: Tenant;
let mine: string[];
let foreign: string;
let doc: {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: { content: { 'application/json': { schema: Schema } } } }>>;
  components: { schemas: Record<string, Schema> };
};
interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  type?: string | string[];
}

const resolve = (s: Schema | undefined): Schema | undefined => (s?.$ref ? doc.components.schemas[s.$ref.replace(/^#\/components\/schemas\//, '')] : s);
const HOSTILE: unknown[] = ['a\u0000b', 'x'.repeat(10_000), 1e308, -1, 2 ** 53, true, { nested: 1 }, ['a'], null, ''];

async function counts(tenant: Tenant) {
  const db = h.ledger.db.adminDb;
  const q = async (sql: string) => Number((await db.raw(sql, [tenant.workspaceId])).rows[0].n);
  return {
    entries: await q('select count(*)::int as n from journal_entries where workspace_id = ?'),
    pairs: await q('select count(*)::int as n from workspace_transactions where workspace_id = ? and transfer_pair_id is not null'),
    fiscal: (await h.api('GET', '/categories/fiscal-year', { tenant })).body.fiscalYearStartMonth,
  };
}

beforeAll(async () => {
  h = await startLedgerHarness();
  t = h.tenant();
  other = h.tenant();
  const chk = await t.banking.link({ name: 'Checking', mask: '0101' });
  const sav = await t.banking.link({ name: 'Savings', type: 'depository', subtype: 'savings', mask: '0202' });
  await t.banking.add(chk, { amountCents: -9_900, date: '2026-09-10', name: 'Deposit move' });
  await t.banking.add(sav, { amountCents: 9_900, date: '2026-09-11', name: 'Deposit arrives' });
  mine = ((await h.transactions(t, 2)).data as { id: string }[]).map((x) => x.id);
  const o = await other.banking.link({ name: 'Other', mask: '0303' });
  await other.banking.add(o, { amountCents: -9_900, date: '2026-09-10', name: 'Theirs' });
  foreign = (await h.transactions(other, 1)).data[0].id;
  doc = (await h.api('GET', '/docs/json')).body;
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe("issue #12's routes, from their schemas in /docs/json", () => {
  it('are documented', () => {
    for (const r of ROUTES) expect(doc.paths[r.path]?.[r.method.toLowerCase()], `${r.method} ${r.path}`).toBeDefined();
  });

  it('answer hostile input with a 4xx naming the field, never a 5xx, and change nothing', async () => {
    const before = { mine: await counts(t), other: await counts(other) };
    for (const r of ROUTES) {
      const op = doc.paths[r.path]![r.method.toLowerCase()]!;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const body = Object.keys(resolve(op.requestBody?.content['application/json'].schema)?.properties ?? {});
      for (const field of [...query, ...body]) {
        for (const value of HOSTILE) {
          const valid: Record<string, unknown> = Object.fromEntries(
            [...query, ...body].map((f) => [f, f === 'fiscalYearStartMonth' ? 1 : f === 'counterpartTransactionId' ? mine[1] : mine[0]]),
          );
          valid[field] = value;
          const path = query.length
            ? `${r.path}?${new URLSearchParams(Object.entries(valid).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()}`
            : r.path;
          const a = await h.api(r.method, path, { tenant: t, body: query.length ? undefined : valid });
          const what = `${r.method} ${r.path} ${field}=${JSON.stringify(value).slice(0, 40)}`;
          expect(a.status, what).toBeGreaterThanOrEqual(400);
          expect(a.status, what).toBeLessThan(500);
          expect(a.body, what).toMatchObject({ message: expect.any(String), statusCode: a.status });
          if (a.status === 400 && a.body.errors) expect(a.body.errors.map((e: { field: string }) => e.field).join(' '), what).toContain(field);
        }
      }
    }
    expect({ mine: await counts(t), other: await counts(other) }).toEqual(before);
  }, 120_000);

  it("another workspace's transaction id, in the query or inside the body, is a 404 and changes nothing", async () => {
    const before = { mine: await counts(t), other: await counts(other) };
    // Each 404 names the field that holds the foreign id.
    const notFound = (a: { status: number; body: { errors?: { field: string }[] } }) => ({ status: a.status, fields: a.body.errors?.map((e) => e.field) });
    expect(notFound(await h.api('GET', `/transactions/transfer-candidates?transactionId=${foreign}`, { tenant: t }))).toEqual({
      status: 404,
      fields: ['transactionId'],
    });
    expect(
      notFound(await h.api('POST', '/transactions/pair-transfer', { tenant: t, body: { transactionId: mine[0], counterpartTransactionId: foreign } })),
    ).toEqual({ status: 404, fields: ['counterpartTransactionId'] });
    expect(
      notFound(await h.api('POST', '/transactions/pair-transfer', { tenant: t, body: { transactionId: foreign, counterpartTransactionId: mine[0] } })),
    ).toEqual({ status: 404, fields: ['transactionId'] });
    expect(notFound(await h.api('POST', '/transactions/unpair-transfer', { tenant: t, body: { transactionId: foreign } }))).toEqual({
      status: 404,
      fields: ['transactionId'],
    });
    // A body that tries to name another workspace has no effect either.
    const fy = await h.api('PATCH', '/categories/fiscal-year', { tenant: t, body: { fiscalYearStartMonth: 4, workspaceId: other.workspaceId } });
    expect(fy.status).toBeLessThan(500);
    expect((await counts(other)).fiscal).toBe(before.other.fiscal);
    if (fy.status === 200) await h.api('PATCH', '/categories/fiscal-year', { tenant: t, body: { fiscalYearStartMonth: before.mine.fiscal } });
    expect({ mine: await counts(t), other: await counts(other) }).toEqual(before);
  });

  it("a Viewer's writes are refused with 403 'Editing actions are disabled for your account' and change nothing", async () => {
    const before = await counts(t);
    const viewer = { ...t, token: t.viewerToken };
    for (const [method, path, body] of [
      ['POST', '/transactions/pair-transfer', { transactionId: mine[0], counterpartTransactionId: mine[1] }],
      ['POST', '/transactions/unpair-transfer', { transactionId: mine[0] }],
      ['PATCH', '/categories/fiscal-year', { fiscalYearStartMonth: 7 }],
    ] as const) {
      const a = await h.api(method, path, { tenant: viewer, body });
      expect(a.status, path).toBe(403);
      expect(a.body.message, path).toBe('Editing actions are disabled for your account');
    }
    expect(await counts(t)).toEqual(before);
    // Reads stay open to a Viewer.
    expect((await h.api('GET', `/transactions/transfer-candidates?transactionId=${mine[0]}`, { tenant: viewer })).status).toBe(200);
  });
});
