import { eventMessage, EventType, isUuid, startConsumer, type Consumer, type EventBus, type Knex, type Logger } from '@ledgerline/platform';
import type { BankTransaction, BankTransactionRemoved } from '@ledgerline/proto/events/v1/banking_pb';
import { bankDeposits } from '../store/stripe-reconciliation-store.js';
import { reconcilePayouts } from '../usecases/stripe-reconciliation.js';

/** The durable (and inbox) name of the consumer of banking's transactions. */
export const BANK_DEPOSIT_CONSUMER = 'integrations_bank_deposits';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Money in, at most a trillion minor units (the same bound as Stripe's payloads). */
const MAX_CENTS = 1e12;

function depositOf(eventId: string, t: BankTransaction) {
  if (!isUuid(t.id) || !DATE.test(t.date) || t.accountId.length > 255) throw new Error(`invalid bank transaction in event ${eventId}`);
  const amountCents = Number(t.amountCents);
  if (!Number.isSafeInteger(amountCents) || Math.abs(amountCents) > MAX_CENTS) throw new Error(`invalid bank transaction amount in event ${eventId}`);
  return {
    transactionId: t.id,
    accountId: t.accountId,
    date: t.date,
    amountCents,
    description: [t.name, t.merchantName].filter(Boolean).join(' '),
    pending: t.pending,
    removed: false,
    version: Number(t.version),
  };
}

const removedOf = (eventId: string, t: BankTransactionRemoved) => {
  if (!isUuid(t.id)) throw new Error(`invalid bank transaction in event ${eventId}`);
  return {
    transactionId: t.id,
    accountId: t.accountId,
    date: '1970-01-01',
    amountCents: 0,
    description: '',
    pending: false,
    removed: true,
    version: Number(t.version),
  };
};

/**
 * Keeps the deposits of the workspace's bank accounts (banking's bank_transaction.* and bank_transactions.page, in
 * the sign convention > 0 money in; older versions ignored) and links paid Stripe payouts to them in the same
 * transaction. Only money in is kept: a payout never lands as money out.
 */
export function startBankDepositConsumer(options: { db: Knex; bus: EventBus; logger: Logger; maxDeliver?: number }): Promise<Consumer> {
  return startConsumer({
    name: BANK_DEPOSIT_CONSUMER,
    types: [EventType.BankTransactionAdded, EventType.BankTransactionModified, EventType.BankTransactionRemoved, EventType.BankTransactionsPage],
    db: options.db,
    bus: options.bus,
    logger: options.logger,
    maxDeliver: options.maxDeliver ?? 8,
    async handle(trx, event) {
      const states = [];
      switch (event.type) {
        case EventType.BankTransactionAdded:
        case EventType.BankTransactionModified:
          states.push(depositOf(event.id, eventMessage(event)));
          break;
        case EventType.BankTransactionRemoved:
          states.push(removedOf(event.id, eventMessage(event)));
          break;
        case EventType.BankTransactionsPage:
          for (const { change } of eventMessage(event).changes) {
            if (!change.case) throw new Error(`invalid ${event.type} ${event.id}: a change of no kind`);
            states.push(change.case === 'removed' ? removedOf(event.id, change.value) : depositOf(event.id, change.value));
          }
          break;
      }
      let changed = false;
      for (const s of states) {
        // Only deposits are kept: a removal, or a modification to money out, retires one held (else nothing).
        const wrote =
          s.removed || s.amountCents <= 0 ? await bankDeposits.retire(trx, s.transactionId, s.version) : await bankDeposits.upsert(trx, event.workspaceId, s);
        changed = wrote || changed;
      }
      if (changed) await reconcilePayouts(trx);
    },
  });
}
