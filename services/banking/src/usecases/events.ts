import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { newId, writeEvent, type Knex } from '@ledgerline/platform';
import { BankAccountLinkedSchema, BankAccountRemovedSchema, BankTransactionRemovedSchema, BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import type { AccountRow, TransactionRow } from '../store/rows.js';
import { SOURCE } from './context.js';

function transactionPayload(row: TransactionRow) {
  return create(BankTransactionSchema, {
    id: row.id,
    accountId: row.account_id,
    externalId: row.external_id,
    amountCents: BigInt(row.amount_cents),
    isoCurrencyCode: row.iso_currency_code,
    date: row.date,
    authorizedDate: row.authorized_date ?? '',
    name: row.name,
    merchantName: row.merchant_name,
    pending: row.pending,
    providerCategory: row.provider_category,
    version: BigInt(row.version),
  });
}

/** Events through the outbox, in the caller's transaction (published if and only if it commits). */
export async function transactionEvent(trx: Knex.Transaction, kind: 'added' | 'modified', row: TransactionRow): Promise<void> {
  await writeEvent(trx, SOURCE, { type: `bank_transaction.${kind}`, workspaceId: row.workspace_id, schema: BankTransactionSchema, payload: transactionPayload(row) });
}

/**
 * `bank_transaction.added` for a whole sync page in one multi-row insert. The rows are exactly those of
 * the platform's `writeEvent` (envelope, headers, one NOTIFY), batched: a page of 500 is one
 * statement instead of 500, which is most of the sync's throughput.
 */
export async function transactionsAddedEvents(trx: Knex.Transaction, rows: readonly TransactionRow[]): Promise<void> {
  if (rows.length === 0) return;
  // Sync pages run in a queue worker, outside any request's trace: there is no context to carry.
  const headers: Record<string, string> = {};
  const occurredAt = timestampFromDate(new Date());
  const outbox = rows.map((row) => {
    const id = newId();
    const envelope = create(EventEnvelopeSchema, { id, type: 'bank_transaction.added', workspaceId: row.workspace_id, occurredAt, source: SOURCE, payload: toBinary(BankTransactionSchema, transactionPayload(row)) });
    return { id, workspace_id: row.workspace_id, type: 'bank_transaction.added', envelope: Buffer.from(toBinary(EventEnvelopeSchema, envelope)), headers };
  });
  for (let i = 0; i < outbox.length; i += 1_000) await trx('outbox').insert(outbox.slice(i, i + 1_000));
  await trx.raw("select pg_notify('outbox', '')");
}

export async function transactionRemovedEvent(trx: Knex.Transaction, row: TransactionRow): Promise<void> {
  await writeEvent(trx, SOURCE, {
    type: 'bank_transaction.removed',
    workspaceId: row.workspace_id,
    schema: BankTransactionRemovedSchema,
    payload: create(BankTransactionRemovedSchema, { id: row.id, accountId: row.account_id, externalId: row.external_id, version: BigInt(row.version) }),
  });
}

export async function accountLinkedEvent(trx: Knex.Transaction, row: AccountRow): Promise<void> {
  await writeEvent(trx, SOURCE, {
    type: 'bank_account.linked',
    workspaceId: row.workspace_id,
    schema: BankAccountLinkedSchema,
    payload: create(BankAccountLinkedSchema, {
      accountId: row.id,
      name: row.name,
      mask: row.mask,
      type: row.type,
      subtype: row.subtype,
      institutionName: row.institution_name,
      isoCurrencyCode: row.iso_currency_code,
      source: row.source,
    }),
  });
}

export async function accountRemovedEvent(trx: Knex.Transaction, row: AccountRow): Promise<void> {
  await writeEvent(trx, SOURCE, {
    type: 'bank_account.removed',
    workspaceId: row.workspace_id,
    schema: BankAccountRemovedSchema,
    payload: create(BankAccountRemovedSchema, { accountId: row.id }),
  });
}
