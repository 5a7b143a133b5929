// Sync throughput: Plaid (the local sandbox, over the official SDK) → raw bank transactions stored → their
// events published to JetStream. `npm run bench` calls `benchSyncThroughput` with a running sandbox.
import { createLogger, newId, withSystem, withTenant } from '@ledgerline/platform';
import { createTestBus, createTestDatabase } from '@ledgerline/platform/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { Products, type SandboxPublicTokenCreateRequest } from 'plaid';
import { bankingConfigSchema } from '../src/config.js';
import { createPlaidClient } from '../src/plaid/client.js';
import { createBankingService } from '../src/service.js';
import { accounts, items } from '../src/store/banking-store.js';
import { bankingMigrations } from '../src/store/migrations.js';
import { TokenCipher } from '../src/store/token-cipher.js';

export interface SyncBenchOptions {
  /** The Plaid sandbox (services/sandboxes/plaid): its URL and credentials. */
  plaidUrl: string;
  clientId: string;
  secret: string;
  /** Transactions of the item (the sandbox allows up to 100,000). */
  transactions?: number;
  /** A sandbox institution; the default has checking, savings and a credit card. */
  institutionId?: string;
  pageSize?: number;
}

export interface SyncBenchResult {
  transactions: number;
  /** From the job's start until the last page committed (rows, cursor and outbox). */
  storedSeconds: number;
  /** Until every event of the sync was acknowledged by JetStream. */
  publishedSeconds: number;
  storedPerSecond: number;
  /** The headline figure: transactions per second from the sandbox to stored and published. */
  transactionsPerSecond: number;
}

/** Links one sandbox item of `transactions` transactions and times its first sync, on a fresh database and NATS namespace. */
export async function benchSyncThroughput(options: SyncBenchOptions): Promise<SyncBenchResult> {
  const total = options.transactions ?? 100_000;
  const db = await createTestDatabase('banking_bench', bankingMigrations);
  const bus = await createTestBus('banking-bench');
  const config = bankingConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    BANKING_PORT: '0',
    BANKING_DATABASE_URL: db.appUrl,
    NATS_NAMESPACE: bus.namespace,
    PLAID_BASE_URL: options.plaidUrl,
    PLAID_CLIENT_ID: options.clientId,
    PLAID_SECRET: options.secret,
    SYNC_PAGE_SIZE: String(options.pageSize ?? 500),
    SYNC_ACK_WAIT_MS: '60000',
  });
  const plaid = createPlaidClient({ baseUrl: options.plaidUrl, clientId: options.clientId, secret: options.secret, timeoutMs: 60_000 });
  const service = await createBankingService(config, { db: db.appDb, bus, plaid, logger: createLogger('banking-bench', 'warn') });
  try {
    await service.listen();
    // The sandbox's own extension (options.ledgerline) sets the history size; the SDK's type does not know it.
    const request = {
      institution_id: options.institutionId ?? 'ins_109508',
      initial_products: [Products.Transactions],
      options: { ledgerline: { transactions: total, initial_webhook: false } },
    };
    const { public_token } = (await plaid.sandboxPublicTokenCreate(request as SandboxPublicTokenCreateRequest)).data;
    const { access_token, item_id } = (await plaid.itemPublicTokenExchange({ public_token })).data;
    const got = (await plaid.accountsGet({ access_token })).data;
    const workspaceId = newId();
    const started = performance.now();
    const job = await withTenant(service.db, { workspaceId }, async (trx) => {
      const item = await items.upsert(trx, {
        id: newId(),
        workspace_id: workspaceId,
        item_id,
        ...new TokenCipher(config.PLAID_TOKEN_KEYS).seal(access_token, item_id),
        institution_id: got.item.institution_id ?? '',
        institution_name: 'Bench Bank',
      });
      await accounts.insert(
        trx,
        got.accounts.map((a) => ({
          id: newId(),
          workspace_id: workspaceId,
          plaid_item_id: item.id,
          vendor_account_id: a.account_id,
          name: a.name,
          mask: a.mask ?? '',
          type: String(a.type),
          subtype: String(a.subtype ?? ''),
        })),
      );
      return service.scheduler.requestSync(trx, { workspaceId, plaidItemId: item.id, reason: 'manual' });
    });
    await service.scheduler.publish(job);
    let storedAt = 0;
    for (;;) {
      const row = await withSystem(service.db, (trx) => trx('sync_jobs').where({ id: job.id }).first('status', 'transaction_pushed', 'failed_reason'));
      if (row?.status === 'failed') throw new Error(`bench sync failed: ${row.failed_reason}`);
      if (row?.status === 'completed') {
        storedAt = performance.now();
        if (row.transaction_pushed !== total) throw new Error(`bench sync stored ${row.transaction_pushed} of ${total}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const jsm = await jetstreamManager(bus.connection);
    const stream = `${bus.namespace.toUpperCase()}_LEDGERLINE_EVENTS`;
    for (;;) {
      const info = await jsm.streams.info(stream, { subjects_filter: `${bus.namespace}.events.bank_transaction.added` });
      if ((info.state.subjects?.[`${bus.namespace}.events.bank_transaction.added`] ?? 0) >= total) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const publishedAt = performance.now();
    const storedSeconds = (storedAt - started) / 1000;
    const publishedSeconds = (publishedAt - started) / 1000;
    return {
      transactions: total,
      storedSeconds: Math.round(storedSeconds * 100) / 100,
      publishedSeconds: Math.round(publishedSeconds * 100) / 100,
      storedPerSecond: Math.round(total / storedSeconds),
      transactionsPerSecond: Math.round(total / publishedSeconds),
    };
  } finally {
    await service.stop();
    const jsm = await jetstreamManager(bus.connection);
    await jsm.streams.delete(`${bus.namespace.toUpperCase()}_JOBS_TRANSACTION_SYNC`).catch(() => undefined);
    await bus.close();
    await db.drop();
  }
}
