// Property (issue #19 "Must show"): whatever fixed assets are made (any method, cost, salvage, life, start), however the
// scheduler's sweeps, stops and deletes interleave over simulated months, after every step the books balance (every
// debit has its credit), Accumulated Depreciation holds exactly the months the API shows as depreciated (never more than
// cost − salvage of each asset), Depreciation Expense mirrors it, and the asset account holds the cost of the live
// assets. Real ledger, documents, gateway, PostgreSQL and NATS; fast-check picks the actions.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bankTransactions, categoryIds, debitBalance, startDocumentsSystem, type DocumentsSystem, type Tenant } from './documents.harness.js';

let now = new Date('2026-04-20T12:00:00Z');
const clock = () => now;

let s: DocumentsSystem;

beforeAll(async () => {
  s = await startDocumentsSystem('fixed-assets-property', { clock });
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const METHODS = ['STRAIGHT_LINE', 'UNITS_OF_PRODUCTION', 'DOUBLE_DECLINING_BALANCE', 'SUM_OF_YEARS_DIGITS'] as const;
const asset = fc.record({
  method: fc.constantFrom(...METHODS),
  costCents: fc.integer({ min: 100, max: 5_000_000 }),
  salvageShare: fc.constantFrom(0, 0.1, 0.5, 1),
  usefulLife: fc.integer({ min: 1, max: 4 }),
  startMonth: fc.integer({ min: 0, max: 5 }),
});
const action = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), asset }),
  fc.record({ kind: fc.constant('advance' as const), months: fc.integer({ min: 1, max: 14 }) }),
  fc.record({ kind: fc.constant('stop' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

async function trialBalance(tn: Tenant): Promise<number> {
  const r = (
    await s.ledger.db.adminDb.raw(
      "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as b from journal_lines where workspace_id = ?",
      [tn.workspaceId],
    )
  ).rows as { b: string }[];
  return Number(r[0]?.b);
}
const accountId = async (tn: Tenant, name: string) =>
  (
    (await s.ledger.db.adminDb.raw('select id::text from accounts where workspace_id = ? and name = ? and level >= 3', [tn.workspaceId, name])).rows as {
      id: string;
    }[]
  )[0]?.id;

it('after every step the books balance and the depreciation accounts equal what the schedules show as depreciated', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(action, { minLength: 3, maxLength: 6 }), async (actions) => {
      now = new Date('2026-04-20T12:00:00Z');
      const tn = s.tenant();
      const c = await categoryIds(s, tn);
      const live: { id: string; costCents: number }[] = [];
      for (const a of actions) {
        if (a.kind === 'create') {
          const [txn] = await bankTransactions(s, tn, [-a.asset.costCents]);
          const start = `2026-${String(4 + a.asset.startMonth).padStart(2, '0')}-15`;
          const r = await s.api('POST', '/accounting/fixed-asset', {
            tenant: tn,
            body: {
              transactionId: txn,
              purchaseDate: '2026-04-15',
              depreciationStartDate: start,
              assetTypeId: c['Computer Equipment'],
              cost: a.asset.costCents / 100,
              salvageValue: Math.floor(a.asset.costCents * a.asset.salvageShare) / 100,
              usefulLife: a.asset.usefulLife,
              method: a.asset.method,
              totalEstimatedUnits: 1200,
              unitProducedPerYear: 600,
            },
          });
          expect(r.status, JSON.stringify(r.body)).toBe(201);
          live.push({ id: r.body.fixedAsset.id, costCents: a.asset.costCents });
        } else if (a.kind === 'advance') {
          now = new Date(now.getTime() + a.months * 30.5 * 86_400_000);
          await s.documents.depreciation.runOnce();
        } else if (live.length > 0) {
          const target = live[a.pick % live.length]!;
          if (a.kind === 'stop') {
            expect((await s.api('POST', `/accounting/fixed-asset/stop/${target.id}`, { tenant: tn })).status).toBe(200);
          } else {
            expect((await s.api('DELETE', `/accounting/fixed-asset/${target.id}`, { tenant: tn })).status).toBe(200);
            live.splice(live.indexOf(target), 1);
          }
        }
        // Whatever a background sweep (woken by a create) does is done before the books are read.
        await s.documents.depreciation.runOnce();
        expect(await trialBalance(tn)).toBe(0);
        let shown = 0;
        for (const l of live) {
          const one = (await s.api('GET', `/accounting/fixed-asset/${l.id}`, { tenant: tn })).body;
          const posted = (one.schedule as { isDepreciated: boolean; depreciationAmount: number }[])
            .filter((m) => m.isDepreciated)
            .reduce((t, m) => t + Math.round(m.depreciationAmount * 100), 0);
          expect(posted).toBeLessThanOrEqual(Math.round((one.cost - one.salvageValue) * 100));
          expect(Math.round(one.accumulatedDepreciation * 100)).toBe(posted);
          shown += posted;
        }
        const accumulated = await accountId(tn, 'Accumulated Depreciation');
        const expense = await accountId(tn, 'Depreciation Expense');
        expect((accumulated ? -(await debitBalance(s, tn, accumulated)) : 0) + 0).toBe(shown);
        expect(expense ? await debitBalance(s, tn, expense) : 0).toBe(shown);
        expect(await debitBalance(s, tn, c['Computer Equipment']!)).toBe(live.reduce((t, l) => t + l.costCents, 0));
      }
    }),
    { numRuns: 8 },
  );
}, 600_000);
