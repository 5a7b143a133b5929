// The batched ingest (LEDGER_INGEST_BATCH) against the per-event path: the same events — two workspaces,
// a redelivered event (same event id), a re-sent add (new event id, same bank transaction), one poison
// event — published at once to a batching ledger and to a one-by-one ledger give the same books: each bank
// transaction booked once, the same balances by month and day and the same places (day_seq, day_net_before).
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { eventSubject, newId, type EventBus } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { BankAccountLinkedSchema, BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bankingFor, publish, publishedEntries, rows, startLedger, trialBalance, type LedgerHarness } from './support.js';

interface Side {
  bus: Awaited<ReturnType<typeof createTestBus>>;
  ledger: LedgerHarness;
  dead: string[];
}
let batched: Side;
let single: Side;
const saved = { batch: process.env.LEDGER_INGEST_BATCH, concurrency: process.env.LEDGER_CONSUMER_CONCURRENCY };

async function side(batch: string): Promise<Side> {
  process.env.LEDGER_INGEST_BATCH = batch;
  process.env.LEDGER_CONSUMER_CONCURRENCY = '1';
  const bus = await createTestBus(`ledger-batch-${batch}`);
  const ledger = await startLedger(bus, { maxDeliver: 2 });
  const dead: string[] = [];
  await bus.subscribe({ durable: 'test_dead', subjects: ['dead.ledger'] }, async (msg) => {
    dead.push(msg.headers['Nats-Msg-Id'] ?? '');
    await msg.ack();
  });
  return { bus, ledger, dead };
}

beforeAll(async () => {
  batched = await side('300');
  single = await side('1');
});
afterAll(async () => {
  process.env.LEDGER_INGEST_BATCH = saved.batch;
  process.env.LEDGER_CONSUMER_CONCURRENCY = saved.concurrency;
  for (const s of [batched, single]) {
    await s?.ledger.close();
    await s?.bus.close();
  }
});

/** bank_transaction.added as banking's relay sends it; `msgId` other than the event id = a redelivery past JetStream's de-duplication. */
async function added(
  bus: EventBus,
  ev: { eventId: string; msgId?: string; workspaceId: string; id: string; accountId: string; amountCents: number; date: string; name: string },
): Promise<void> {
  const payload = toBinary(
    BankTransactionSchema,
    create(BankTransactionSchema, {
      id: ev.id,
      accountId: ev.accountId,
      externalId: `x-${ev.id.slice(-6)}`,
      amountCents: BigInt(ev.amountCents),
      isoCurrencyCode: 'USD',
      date: ev.date,
      name: ev.name,
      merchantName: ev.name,
      pending: false,
      version: 1n,
    }),
  );
  const envelope = create(EventEnvelopeSchema, {
    id: ev.eventId,
    type: 'bank_transaction.added',
    workspaceId: ev.workspaceId,
    occurredAt: timestampFromDate(new Date()),
    source: 'banking',
    payload,
  });
  await bus.publish(eventSubject('bank_transaction.added'), toBinary(EventEnvelopeSchema, envelope), { msgId: ev.msgId ?? ev.eventId });
}

/** The books of a workspace with accounts named by coaId (ids differ between the two ledgers). */
async function books(s: Side, ws: string) {
  const db = s.ledger.db.adminDb;
  return {
    txns: await rows(
      db,
      `select t.bank_transaction_id, t.amount_cents, t.txn_date, c.coa_id as category, t.version, t.is_removed, t.current_entry_id is not null as booked,
      (select count(*)::int from transaction_audit_logs a where a.transaction_id = t.id) as trail, (select count(*)::int from journal_entries e where e.transaction_id = t.id) as entries
      from workspace_transactions t left join accounts c on c.id = t.category_id where t.workspace_id = ? order by t.bank_transaction_id`,
      [ws],
    ),
    lines: await rows(
      db,
      `select a.coa_id, l.entry_date, l.day_seq, l.day_net_before, l.direction, l.amount_cents, t.bank_transaction_id
      from journal_lines l join accounts a on a.id = l.account_id join workspace_transactions t on t.id = l.transaction_id where l.workspace_id = ? order by 1, 2, 3`,
      [ws],
    ),
    months: await rows(
      db,
      'select a.coa_id, b.month, b.debit_cents, b.credit_cents, b.line_count from account_balances b join accounts a on a.id = b.account_id where b.workspace_id = ? order by 1, 2',
      [ws],
    ),
    days: await rows(
      db,
      'select a.coa_id, b.day, b.debit_cents, b.credit_cents, b.line_count from account_day_balances b join accounts a on a.id = b.account_id where b.workspace_id = ? order by 1, 2',
      [ws],
    ),
    billers: await rows(db, 'select name from billers where workspace_id = ? order by 1', [ws]),
    posted: (await publishedEntries(db, ws)).length,
    entries: (await rows<{ n: number }>(db, 'select count(*)::int as n from journal_entries where workspace_id = ?', [ws]))[0]!.n,
  };
}

it('books a batch with redeliveries, a re-sent add, a poison event and two workspaces exactly as the per-event path does', async () => {
  const workspaces = [newId(), newId()];
  const bankAccounts = new Map<string, string>();
  // Charts and bank accounts first, on both ledgers, with the same ids.
  for (const ws of workspaces) bankAccounts.set(ws, newId());
  for (const s of [batched, single]) {
    for (const ws of workspaces) {
      const banking = bankingFor(s.bus, ws);
      await banking.workspaceCreated();
    }
  }
  for (const s of [batched, single]) {
    for (const ws of workspaces) {
      await publish(s.bus, 'bank_account.linked', ws, BankAccountLinkedSchema, {
        accountId: bankAccounts.get(ws)!,
        name: 'Checking',
        mask: '1234',
        type: 'depository',
        subtype: 'checking',
        institutionName: 'Test Bank',
        isoCurrencyCode: 'USD',
        source: 'plaid',
      });
    }
    await expectEventually(async () => {
      const n = (
        await rows<{ n: number }>(s.ledger.db.adminDb, 'select count(*)::int as n from accounts where bank_account_id = any(?::uuid[])', [
          [...bankAccounts.values()],
        ])
      )[0]!.n;
      if (n !== 2) throw new Error('not linked yet');
    });
  }

  // One sequence of events, interleaving the two workspaces, several lines per account × day.
  const events: Parameters<typeof added>[1][] = [];
  const bankIds: string[] = [];
  for (let i = 0; i < 90; i++) {
    const ws = workspaces[i % 3 === 0 ? 1 : 0]!;
    const id = newId();
    bankIds.push(id);
    events.push({
      eventId: newId(),
      workspaceId: ws,
      id,
      accountId: bankAccounts.get(ws)!,
      amountCents: (i % 4 === 0 ? 1 : -1) * (1_000 + 37 * i),
      date: `2026-0${6 + (i % 2)}-1${i % 3}`,
      name: `Merchant ${i % 4}`,
    });
  }
  const redelivered = events.slice(10, 15).map((e) => ({ ...e, msgId: newId() }));
  const resent = events.slice(20, 23).map((e) => ({ ...e, eventId: newId(), amountCents: e.amountCents + 1 }));
  const poison = {
    eventId: newId(),
    workspaceId: workspaces[0]!,
    id: newId(),
    accountId: bankAccounts.get(workspaces[0]!)!,
    amountCents: -500,
    date: '2026-13-45',
    name: 'Poison',
  };
  const sequence = [...events.slice(0, 40), ...redelivered, poison, ...events.slice(40), ...resent];
  // Pipelined on one connection (stored in this order), so the consumer finds them pending.
  for (const s of [batched, single]) await Promise.all(sequence.map((e) => added(s.bus, e)));

  for (const s of [batched, single]) {
    await expectEventually(
      async () => {
        const n = (
          await rows<{ n: number }>(s.ledger.db.adminDb, 'select count(*)::int as n from workspace_transactions where workspace_id = any(?::uuid[])', [
            workspaces,
          ])
        )[0]!.n;
        if (n !== 90 || s.dead.length !== 1) throw new Error(`booked ${n} of 90, ${s.dead.length} dead-lettered`);
      },
      { timeoutMs: 90_000 },
    );
    expect(s.dead).toEqual([`dead:ledger:${poison.eventId}`]);
  }

  for (const ws of workspaces) {
    const a = await books(batched, ws);
    const b = await books(single, ws);
    expect(await trialBalance(batched.ledger.db.adminDb, ws)).toBe(0);
    // Once each: one row, one entry, one trail entry and one entry.posted per bank transaction.
    expect(a.txns.every((t) => (t as { entries: number; trail: number }).entries === 1 && (t as { trail: number }).trail === 1)).toBe(true);
    expect(a.posted).toBe(a.entries);
    expect(a).toEqual(b);
  }
  const inbox = (s: Side) => rows<{ n: number }>(s.ledger.db.adminDb, "select count(*)::int as n from inbox where type = 'bank_transaction.added'");
  expect(await inbox(batched)).toEqual(await inbox(single));
  // The batching ledger booked the workspace without the poison in batches (one transaction's inbox rows
  // share their handled_at); the poison's workspace went event by event after its batch failed.
  const handled = await rows<{ workspace_id: string; events: number; transactions: number }>(
    batched.ledger.db.adminDb,
    "select workspace_id, count(*)::int as events, count(distinct handled_at)::int as transactions from inbox where type = 'bank_transaction.added' group by 1",
  );
  const clean = handled.find((h) => h.workspace_id === workspaces[1])!;
  expect(clean.events).toBe(31); // 30 adds and one re-sent (a new event id)
  expect(clean.transactions).toBeLessThan(10);
}, 180_000);
