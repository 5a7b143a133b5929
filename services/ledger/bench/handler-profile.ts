// Where a booked bank transaction's time goes: the consumer's handler alone (no NATS), one database
// transaction per event as the consumer runs it, with the time of each SQL statement kind.
// `npx tsx --conditions=ledgerline-source services/ledger/bench/handler-profile.ts` (PROFILE_EVENTS=300).
import { create, toBinary } from '@bufbuild/protobuf';
import { newId, withTenant } from '@ledgerline/platform';
import { createTestDatabase } from '@ledgerline/platform/testing';
import { BankAccountLinkedSchema, BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { ledgerMigrations } from '../src/store/migrations.js';
import { handleLedgerEvent } from '../src/usecases/bank-events.js';

interface QueryEvent {
  __knexQueryUid: string;
  sql: string;
}

const n = Number(process.env.PROFILE_EVENTS ?? 300);
const db = await createTestDatabase('ledger_profile', ledgerMigrations);
try {
  const ws = newId();
  const account = newId();
  const event = (type: string, payload: Uint8Array) => ({ id: newId(), type, workspaceId: ws, source: 'profile', occurredAt: new Date(), payload });
  await withTenant(db.appDb, { workspaceId: ws }, (trx) =>
    handleLedgerEvent(
      trx,
      event(
        'bank_account.linked',
        toBinary(
          BankAccountLinkedSchema,
          create(BankAccountLinkedSchema, { accountId: account, name: 'Operating', mask: '1', type: 'depository', subtype: 'checking' }),
        ),
      ),
    ),
  );
  const started = new Map<string, number>();
  const cost = new Map<string, { ms: number; count: number }>();
  db.appDb.on('query', (q: QueryEvent) => started.set(q.__knexQueryUid, performance.now()));
  db.appDb.on('query-response', (_r: unknown, q: QueryEvent) => {
    const kind = q.sql.replace(/\s+/g, ' ').trim().slice(0, 70);
    const c = cost.get(kind) ?? { ms: 0, count: 0 };
    c.ms += performance.now() - (started.get(q.__knexQueryUid) ?? performance.now());
    c.count += 1;
    cost.set(kind, c);
  });
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const payload = toBinary(
      BankTransactionSchema,
      create(BankTransactionSchema, {
        id: newId(),
        accountId: account,
        externalId: `p${i}`,
        amountCents: BigInt(-100 - i),
        isoCurrencyCode: 'USD',
        date: `2025-01-0${1 + (i % 9)}`,
        name: `Coffee ${i % 10}`,
        merchantName: `Coffee ${i % 10}`,
        pending: false,
        version: 1n,
      }),
    );
    await withTenant(db.appDb, { workspaceId: ws }, async (trx) => {
      // The consumer's inbox row, in the same transaction as the handler (platform events/consumer.ts).
      await trx('inbox').insert({ consumer: 'ledger', event_id: newId(), workspace_id: ws, type: 'bank_transaction.added' });
      await handleLedgerEvent(trx, event('bank_transaction.added', payload));
    });
  }
  const total = (performance.now() - t0) / n;
  const statements = [...cost.values()].reduce((s, c) => s + c.count, 0) / n;
  process.stdout.write(`${n} bank transactions: ${total.toFixed(2)} ms each, ${statements.toFixed(1)} statements each (BEGIN and COMMIT not counted)\n`);
  for (const [kind, c] of [...cost].sort((a, b) => b[1].ms - a[1].ms))
    process.stdout.write(`${(c.ms / n).toFixed(2).padStart(7)} ms  ${(c.count / n).toFixed(1)}×  ${kind}\n`);
} finally {
  await db.drop();
}
