// The ledger's side of learned categorisation (usecases/categorisation.ts) with a real database and NATS, the
// parties service played by publishing its events: an import's unclaimed transactions get a job and one
// categorization.requested; categorization.suggested applies the confident suggestions (creation mode auto, one
// reversal and one new entry each) and stores the others, exactly once under redelivery (another message id,
// the same event), never touching a transaction finalized or categorised by hand meanwhile; a categorisation
// by hand publishes transaction.categorized.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { eventSubject, newId } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { CategorizationRequestedSchema, TransactionCategorizedSchema, type CategorizationRequested } from '@ledgerline/proto/events/v1/ledger_pb';
import { CategorizationSuggestedSchema } from '@ledgerline/proto/events/v1/parties_pb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bankingFor, rows, startLedger, trialBalance, type LedgerHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;
const workspaceId = newId();
const requests: CategorizationRequested[] = [];
const taught: string[] = [];

beforeAll(async () => {
  bus = await createTestBus('ledger-categorisation');
  ledger = await startLedger(bus);
  for (const [type, sink] of [
    ['categorization.requested', (p: Uint8Array) => requests.push(fromBinary(CategorizationRequestedSchema, p))],
    ['transaction.categorized', (p: Uint8Array) => taught.push(fromBinary(TransactionCategorizedSchema, p).transactionId)],
  ] as const) {
    await bus.subscribe({ durable: `test_${type.replace('.', '_')}`, subjects: [eventSubject(type)] }, async (msg) => {
      sink(fromBinary(EventEnvelopeSchema, msg.data).payload);
      await msg.ack();
    });
  }
});
afterAll(async () => {
  await ledger?.close();
  await bus?.close();
});

const db = () => ledger.db.adminDb;
const txnOf = async (bankId: string) =>
  (
    await rows<{
      id: string;
      category_id: string;
      creation_mode: string | null;
      suggested_category_id: string | null;
      suggestion_confidence: number | null;
      is_finalized: boolean;
      categorization_job_id: string | null;
    }>(db(), 'select * from workspace_transactions where bank_transaction_id = ?', [bankId])
  )[0]!;
const categoryId = async (name: string) =>
  (await rows<{ id: string }>(db(), 'select id from accounts where workspace_id = ? and name = ?', [workspaceId, name]))[0]!.id;
const entries = async (id: string) =>
  Number((await rows<{ n: number }>(db(), 'select count(*)::int as n from journal_entries where source_id = ?', [id]))[0]!.n);

/** categorization.suggested as the parties service's relay sends it; `msgId` other than the event id: a redelivery past JetStream's de-duplication. */
async function suggested(eventId: string, msgId: string, payload: Parameters<typeof create<typeof CategorizationSuggestedSchema>>[1]) {
  const envelope = create(EventEnvelopeSchema, {
    id: eventId,
    type: 'categorization.suggested',
    workspaceId,
    occurredAt: timestampFromDate(new Date()),
    source: 'parties',
    payload: toBinary(CategorizationSuggestedSchema, create(CategorizationSuggestedSchema, payload)),
  });
  await bus.publish(eventSubject('categorization.suggested'), toBinary(EventEnvelopeSchema, envelope), { msgId });
}

it('asks about unclaimed imports, applies confident suggestions exactly once, stores the others, and never touches what a user did meanwhile', async () => {
  const bank = bankingFor(bus, workspaceId);
  await bank.workspaceCreated();
  const account = await bank.link();
  const [a, b, c, d] = [newId(), newId(), newId(), newId()];
  for (const [id, cents, name] of [
    [a, -1200, 'SQ *BLUE BOTTLE 1'],
    [b, -1300, 'SQ *BLUE BOTTLE 2'],
    [c, -1400, 'SQ *BLUE BOTTLE 3'],
    [d, -1500, 'TARGET 4'],
  ] as const)
    await bank.add(account, { id, amountCents: cents, name, date: '2026-10-05' });
  const ids = await expectEventually(
    async () => {
      const all = await Promise.all([a, b, c, d].map(txnOf));
      if (all.some((t) => !t?.categorization_job_id)) throw new Error('not asked yet');
      return all.map((t) => t.id);
    },
    { timeoutMs: 20_000 },
  );
  await expectEventually(async () => expect(requests.flatMap((r) => r.candidates.map((x) => x.transactionId)).sort()).toEqual([...ids].sort()), {
    timeoutMs: 20_000,
  });
  const jobOf = new Map(requests.flatMap((r) => r.candidates.map((x) => [x.transactionId, r.jobId] as const)));
  expect(requests[0]!.candidates[0]).toMatchObject({ bankAccountId: account, date: '2026-10-05' });

  // Meanwhile a user finalizes b and categorises c by hand.
  const [ta, tb, tc, td] = ids as [string, string, string, string];
  const meals = await categoryId('Meals and Entertainment');
  const office = await categoryId('Office Supplies');
  const travel = await categoryId('Travel');
  await ledger.client.bulkUpdateTransactions(
    {
      transactions: [
        { id: tb, isTxnFinalized: true },
        { id: tc, categoryId: travel },
      ],
    },
    ledger.as(workspaceId),
  );
  await expectEventually(async () => expect(taught).toContain(tc), { timeoutMs: 20_000 });
  expect(taught).not.toContain(tb);

  // The answer of each job, delivered twice (a relay retry past de-duplication: same event id, another message id).
  const byJob = new Map<string, { transactionId: string; categoryId: string; confidence: number; apply: boolean }[]>();
  for (const [id, s] of [
    [ta, { categoryId: meals, confidence: 0.93, apply: true }],
    [tb, { categoryId: meals, confidence: 0.9, apply: true }],
    [tc, { categoryId: meals, confidence: 0.9, apply: true }],
    [td, { categoryId: office, confidence: 0.4, apply: false }],
  ] as const) {
    const job = jobOf.get(id)!;
    byJob.set(job, [...(byJob.get(job) ?? []), { transactionId: id, ...s }]);
  }
  for (const [jobId, suggestions] of byJob) {
    const eventId = newId();
    await suggested(eventId, eventId, { jobId, suggestions, threshold: 0.6 });
    await suggested(eventId, newId(), { jobId, suggestions, threshold: 0.6 });
  }
  await expectEventually(
    async () => {
      const jobs = await rows<{ status: string }>(db(), 'select status from categorization_jobs where workspace_id = ?', [workspaceId]);
      expect(jobs.every((j) => j.status === 'completed')).toBe(true);
    },
    { timeoutMs: 20_000 },
  );
  const [ra, rb, rc, rd] = await Promise.all([a, b, c, d].map(txnOf));
  expect(ra).toMatchObject({ category_id: meals, creation_mode: 'auto', suggested_category_id: null, suggestion_confidence: 0.93 });
  expect(await entries(ta)).toBe(3); // the import's, its reversal, the new one: once, not twice
  expect(rb).toMatchObject({ is_finalized: true, creation_mode: null });
  expect(rb!.category_id).not.toBe(meals);
  expect(rc).toMatchObject({ category_id: travel, creation_mode: 'manual' });
  expect(rd).toMatchObject({ creation_mode: null, suggested_category_id: office, suggestion_confidence: 0.4 });
  expect(rd!.category_id).not.toBe(office);
  const totals = await rows<{ applied: number; suggested: number }>(
    db(),
    'select coalesce(sum(applied), 0)::int as applied, coalesce(sum(suggested), 0)::int as suggested from categorization_jobs where workspace_id = ?',
    [workspaceId],
  );
  expect(totals[0]).toEqual({ applied: 1, suggested: 1 });
  expect(Number(await trialBalance(db(), workspaceId))).toBe(0);

  // The queue through the RPC: completed jobs, every transaction categorized.
  const listed = await ledger.client.listCategorizationJobs({ statuses: ['completed'], transactionIds: ids }, ledger.as(workspaceId));
  expect(listed.jobs.length).toBe(byJob.size);
  expect(listed.transactions.map((x) => x.categoryState)).toEqual(['categorized', 'categorized', 'categorized', 'categorized']);
});
