// Categorisation job statuses (decision 0013; spec platform-core §3 queue statuses): a job is waiting until its answer
// arrives, active while the ledger applies it (committed before the application, so GET /jobs/categorization shows it,
// also while a failing application is retried), completed once applied, and failed when the answer cannot be applied
// for good (dead-lettered) or the parties service answered that it could not categorise (failedReason).
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { eventSubject, newId } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { CategorizationRequestedSchema, type CategorizationRequested } from '@ledgerline/proto/events/v1/ledger_pb';
import { CategorizationSuggestedSchema } from '@ledgerline/proto/events/v1/parties_pb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bankingFor, rows, startLedger, type LedgerHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;
const workspaceId = newId();
const requests: CategorizationRequested[] = [];
/** Jobs whose application throws (as a bug or a refused write would), and what the job listing showed meanwhile. */
const failing = new Set<string>();
const seenWhileApplying = new Map<string, string[]>();

beforeAll(async () => {
  bus = await createTestBus('ledger-categorisation-jobs');
  ledger = await startLedger(bus, {
    maxDeliver: 2,
    applySuggestions: (real) => async (trx, ws, answer) => {
      const active = await ledger.client.listCategorizationJobs({ statuses: ['active'], transactionIds: [] }, ledger.as(ws));
      seenWhileApplying.set(answer.jobId, [
        ...(seenWhileApplying.get(answer.jobId) ?? []),
        ...active.jobs.filter((j) => j.id === answer.jobId).map((j) => j.status),
      ]);
      if (failing.has(answer.jobId)) throw new Error('the application failed');
      return real(trx, ws, answer);
    },
  });
  await bus.subscribe({ durable: 'test_jobs_requested', subjects: [eventSubject('categorization.requested')] }, async (msg) => {
    requests.push(fromBinary(CategorizationRequestedSchema, fromBinary(EventEnvelopeSchema, msg.data).payload));
    await msg.ack();
  });
});
afterAll(async () => {
  await ledger?.close();
  await bus?.close();
});

const db = () => ledger.db.adminDb;
const jobRow = async (id: string) =>
  (
    await rows<{ status: string; failed_reason: string | null; finished_at: Date | null }>(
      db(),
      'select status, failed_reason, finished_at from categorization_jobs where id = ?',
      [id],
    )
  )[0]!;

async function suggested(payload: Parameters<typeof create<typeof CategorizationSuggestedSchema>>[1]) {
  const id = newId();
  const envelope = create(EventEnvelopeSchema, {
    id,
    type: 'categorization.suggested',
    workspaceId,
    occurredAt: timestampFromDate(new Date()),
    source: 'parties',
    payload: toBinary(CategorizationSuggestedSchema, create(CategorizationSuggestedSchema, payload)),
  });
  await bus.publish(eventSubject('categorization.suggested'), toBinary(EventEnvelopeSchema, envelope), { msgId: id });
}

it('waiting → active while applied → completed; a failing application → failed (dead letter); a failed answer → failed; the filters find each', async () => {
  const bank = bankingFor(bus, workspaceId);
  await bank.workspaceCreated();
  const account = await bank.link();
  // Three imports, one job each.
  const jobs: { jobId: string; transactionId: string }[] = [];
  for (const [cents, name] of [
    [-1200, 'SQ *BLUE BOTTLE 1'],
    [-1300, 'HARDWARE STORE'],
    [-1400, 'MYSTERY MERCHANT'],
  ] as const) {
    await bank.add(account, { amountCents: cents, name, date: '2026-10-05' });
    const r = await expectEventually(
      () => {
        const found = requests.find((q) => !jobs.some((j) => j.jobId === q.jobId));
        if (!found) throw new Error('not asked yet');
        return found;
      },
      { timeoutMs: 20_000 },
    );
    jobs.push({ jobId: r.jobId, transactionId: r.candidates[0]!.transactionId });
  }
  const [ok, broken, unanswered] = jobs as [(typeof jobs)[0], (typeof jobs)[0], (typeof jobs)[0]];
  for (const j of jobs) expect((await jobRow(j.jobId)).status).toBe('waiting');
  const waiting = await ledger.client.listCategorizationJobs(
    { statuses: ['waiting'], transactionIds: jobs.map((j) => j.transactionId) },
    ledger.as(workspaceId),
  );
  expect(waiting.jobs.map((j) => j.id).sort()).toEqual(jobs.map((j) => j.jobId).sort());
  expect(waiting.transactions.map((t) => t.categoryState)).toEqual(['categorizing', 'categorizing', 'categorizing']);

  const meals = (await rows<{ id: string }>(db(), 'select id from accounts where workspace_id = ? and name = ?', [workspaceId, 'Meals and Entertainment']))[0]!
    .id;
  failing.add(broken.jobId);
  await suggested({ jobId: ok.jobId, suggestions: [{ transactionId: ok.transactionId, categoryId: meals, confidence: 0.95, apply: true }], threshold: 0.6 });
  await suggested({
    jobId: broken.jobId,
    suggestions: [{ transactionId: broken.transactionId, categoryId: meals, confidence: 0.95, apply: true }],
    threshold: 0.6,
  });
  await suggested({ jobId: unanswered.jobId, suggestions: [], threshold: 0.6, failedReason: 'The model could not read the workspace history' });

  await expectEventually(async () => expect((await jobRow(ok.jobId)).status).toBe('completed'), { timeoutMs: 20_000 });
  // Active while it was applied: the listing (another connection) showed it under status active.
  expect(seenWhileApplying.get(ok.jobId)).toEqual(['active']);

  await expectEventually(
    async () =>
      expect(await jobRow(broken.jobId)).toMatchObject({ status: 'failed', failed_reason: 'Applying the suggestions failed: the application failed' }),
    { timeoutMs: 30_000 },
  );
  // Both deliveries saw the job active (the retry too), and then it was given up.
  expect(seenWhileApplying.get(broken.jobId)).toEqual(['active', 'active']);
  expect((await jobRow(broken.jobId)).finished_at).not.toBeNull();
  await expectEventually(
    async () => expect(await jobRow(unanswered.jobId)).toMatchObject({ status: 'failed', failed_reason: 'The model could not read the workspace history' }),
    { timeoutMs: 20_000 },
  );
  // The failed answer was never applied.
  expect(seenWhileApplying.get(unanswered.jobId)).toEqual(['active']);

  const failed = await ledger.client.listCategorizationJobs(
    { statuses: ['failed'], transactionIds: [broken.transactionId, unanswered.transactionId, ok.transactionId] },
    ledger.as(workspaceId),
  );
  expect(failed.jobs.map((j) => [j.id, j.failedReason]).sort()).toEqual(
    [
      [broken.jobId, 'Applying the suggestions failed: the application failed'],
      [unanswered.jobId, 'The model could not read the workspace history'],
    ].sort(),
  );
  // Nothing more will come for a failed job: its transactions are no longer "categorizing".
  expect(failed.transactions.map((t) => t.categoryState)).toEqual(['categorized', 'categorized', 'categorized']);
  expect((await ledger.client.listCategorizationJobs({ statuses: ['active'], transactionIds: [] }, ledger.as(workspaceId))).jobs).toEqual([]);
  const txn = (await rows<{ creation_mode: string | null }>(db(), 'select creation_mode from workspace_transactions where id = ?', [broken.transactionId]))[0]!;
  expect(txn.creation_mode).toBeNull();
});
