import {
  eventMessage,
  EventType,
  isUuid,
  startConsumer,
  type Consumer,
  type ConsumerDeclaration,
  type EventBus,
  type Knex,
  type Logger,
} from '@ledgerline/platform';
import { applyChartChange, recordBankCurrency, recordBankTransactionCurrency } from '../store/balances.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Not per read-model generation: a rebuild replays balances, and chart changes only need to be seen once. */
export const CHART_CONSUMER = 'reporting_chart';

const TYPES = [
  EventType.ChartChanged,
  EventType.BankAccountLinked,
  EventType.BankAccountSynced,
  EventType.BankTransactionAdded,
  EventType.BankTransactionModified,
  EventType.BankTransactionRemoved,
  EventType.BankTransactionsPage,
] as const;

/**
 * Consumes chart.changed (the ledger's outbox, the same stream as entry.posted) with the chassis's
 * exactly-once consumer: records the change's sequence number where report reads wait, and bumps the
 * workspace's chart version (the chart caches of every replica compare it) and balances version (cached
 * reports and held answers laid out on the old chart are not served again). Also records which bank
 * accounts and transactions are in another currency (the ledger books none of them): the reports say so.
 */
export function chartConsumer(o: { maxDeliver?: number } = {}): ConsumerDeclaration<(typeof TYPES)[number]> {
  return {
    name: CHART_CONSUMER,
    types: TYPES,
    maxDeliver: o.maxDeliver ?? 8,
    // A sync of 100,000 transactions is 100,000 adds: gathered in batches, and a USD add (nearly all of them)
    // costs no statement beyond the inbox's.
    batch: {
      types: [EventType.BankTransactionAdded],
      size: 256,
      async handle(trx, events) {
        for (const event of events) {
          if (event.type !== EventType.BankTransactionAdded) continue;
          const t = eventMessage(event);
          const code = t.isoCurrencyCode.trim().toUpperCase();
          if (code === '' || code === 'USD') continue;
          if (!isUuid(t.id) || !DATE.test(t.date)) throw new Error(`invalid ${event.type} ${event.id}`);
          await recordBankTransactionCurrency(trx, event.workspaceId, {
            id: t.id,
            isoCurrencyCode: code,
            date: t.date,
            version: Number(t.version),
            removed: false,
          });
        }
      },
    },
    async handle(trx, event) {
      switch (event.type) {
        case EventType.BankTransactionAdded:
        case EventType.BankTransactionModified: {
          const t = eventMessage(event);
          if (!isUuid(t.id) || !DATE.test(t.date)) throw new Error(`invalid ${event.type} ${event.id}`);
          await recordBankTransactionCurrency(trx, event.workspaceId, {
            id: t.id,
            isoCurrencyCode: t.isoCurrencyCode.trim().toUpperCase(),
            date: t.date,
            version: Number(t.version),
            removed: false,
          });
          return;
        }
        case EventType.BankTransactionRemoved: {
          const t = eventMessage(event);
          if (!isUuid(t.id)) throw new Error(`invalid ${event.type} ${event.id}`);
          await recordBankTransactionCurrency(trx, event.workspaceId, {
            id: t.id,
            isoCurrencyCode: '',
            date: '1970-01-01',
            version: Number(t.version),
            removed: true,
          });
          return;
        }
        // A sync page (issue #22): each change as its single event would be, in order; a USD add costs no statement.
        case EventType.BankTransactionsPage: {
          for (const { change } of eventMessage(event).changes) {
            if (!change.case) throw new Error(`invalid ${event.type} ${event.id}: a change of no kind`);
            const t = change.value;
            if (!isUuid(t.id) || (change.case !== 'removed' && !DATE.test(change.value.date))) throw new Error(`invalid ${event.type} ${event.id}`);
            if (change.case === 'removed') {
              await recordBankTransactionCurrency(trx, event.workspaceId, {
                id: t.id,
                isoCurrencyCode: '',
                date: '1970-01-01',
                version: Number(t.version),
                removed: true,
              });
              continue;
            }
            const code = change.value.isoCurrencyCode.trim().toUpperCase();
            if (change.case === 'added' && (code === '' || code === 'USD')) continue;
            await recordBankTransactionCurrency(trx, event.workspaceId, {
              id: t.id,
              isoCurrencyCode: code,
              date: change.value.date,
              version: Number(t.version),
              removed: false,
            });
          }
          return;
        }
        case EventType.BankAccountLinked:
        case EventType.BankAccountSynced: {
          const p = eventMessage(event);
          const code = p.isoCurrencyCode.trim().toUpperCase();
          // No currency said: nothing to record (Plaid leaves it empty for unofficial currencies too).
          if (code && /^[A-Z]{3}$/.test(code) && isUuid(p.accountId)) await recordBankCurrency(trx, event.workspaceId, p.accountId, code);
          return;
        }
        case EventType.ChartChanged: {
          const seq = Number(eventMessage(event).seq);
          if (!Number.isSafeInteger(seq) || seq < 0) throw new Error(`invalid ${event.type} ${event.id}: seq`);
          await applyChartChange(trx, event.workspaceId, seq);
          return;
        }
      }
    },
  };
}

export function startChartConsumer(o: { db: Knex; bus: EventBus; logger: Logger; maxDeliver?: number }): Promise<Consumer> {
  return startConsumer({ ...chartConsumer(o), db: o.db, bus: o.bus, logger: o.logger });
}
