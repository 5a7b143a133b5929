// Payout reconciliation in the service (decision 0043), on real PostgreSQL, NATS JetStream and the Stripe sandbox:
// banking's bank transaction events (pages and single events, as banking publishes them) feed the deposits; each
// paid payout is linked to its deposit (same amount, within the arrival window), once, whatever arrives first; a
// look-alike deposit outside the window, money out and pending deposits are never linked; a withdrawn deposit
// unlinks its payout, which meets the next matching deposit; another workspace's deposits link nothing here.
import { createLogger, createServiceClient, EventType, newId, publishEvent, tenantHeaders } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { IntegrationsService as IntegrationsRpc } from '@ledgerline/proto/integrations/v1/integrations_pb';
import { startStripeSandbox, type StripeSandbox } from '@ledgerline/stripe-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationsConfigSchema } from '../src/config.js';
import { createIntegrationsService, type IntegrationsService } from '../src/service.js';
import { integrationsMigrations } from '../src/store/migrations.js';

let sandbox: StripeSandbox;
let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let service: IntegrationsService;
let client: ReturnType<typeof createServiceClient<typeof IntegrationsRpc>>;
const workspaceId = newId();
const as = (ws: string) => ({ headers: tenantHeaders({ workspaceId: ws, userId: newId(), role: 'Owner' }) });

beforeAll(async () => {
  sandbox = await startStripeSandbox();
  [db, bus] = await Promise.all([createTestDatabase('integrations', integrationsMigrations), createTestBus('integrations-payout-links')]);
  const config = integrationsConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    INTEGRATIONS_PORT: '0',
    INTEGRATIONS_DATABASE_URL: db.appUrl,
    STRIPE_API_URL: sandbox.url,
    STRIPE_CONNECT_URL: sandbox.url,
    STRIPE_SECRET_KEY: sandbox.secretKey,
    STRIPE_CLIENT_ID: sandbox.clientId,
    STRIPE_WEBHOOK_SECRET: 'whsec_payout_links',
  });
  service = await createIntegrationsService(config, { db: db.appDb, bus, logger: createLogger('integrations-test', 'silent'), maxDeliver: 2 });
  client = createServiceClient(IntegrationsRpc, {
    baseUrl: await service.listen(),
    timeoutMs: 20_000,
    trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'integrations-test', audience: 'integrations' },
  });
}, 60_000);
afterAll(async () => {
  await service?.stop().catch(() => undefined);
  await bus?.close().catch(() => undefined);
  await db?.drop().catch(() => undefined);
  await sandbox?.close();
});

const ymd = (unix: number, days = 0) => new Date((unix + days * 86_400) * 1000).toISOString().slice(0, 10);

interface Txn {
  id: string;
  amountCents: number;
  date: string;
  pending?: boolean;
  version?: number;
  name?: string;
}

const bankTxn = (t: Txn) => ({
  id: t.id,
  accountId: 'bank-account-1',
  externalId: `plaid-${t.id}`,
  amountCents: BigInt(t.amountCents),
  isoCurrencyCode: 'USD',
  date: t.date,
  authorizedDate: '',
  name: t.name ?? 'STRIPE TRANSFER',
  merchantName: '',
  pending: t.pending ?? false,
  providerCategory: 'TRANSFER_IN',
  version: BigInt(t.version ?? 1),
});

const page = (ws: string, txns: Txn[]) =>
  publishEvent(bus, 'banking', {
    type: EventType.BankTransactionsPage,
    workspaceId: ws,
    payload: { changes: txns.map((t) => ({ change: { case: 'added' as const, value: bankTxn(t) } })) },
  });

const links = async () => {
  const r = await client.listStripePayouts({ take: 100 }, as(workspaceId));
  return new Map(r.payouts.map((p) => [p.id, p.transactionId]));
};

describe('payout reconciliation', () => {
  it('links each paid payout to its deposit once, and only it', async () => {
    const account = sandbox.createAccount({ seed: 'payout-links', customers: 25, months: 4 });
    await client.connectStripe({ scope: 'read_only', code: account.code }, as(workspaceId));
    await expectEventually(async () => expect((await client.getStripeSyncStatus({}, as(workspaceId))).status).toBe('completed'), {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    const payouts = sandbox.objects(account.id, 'payout') as unknown as Array<{ id: string; amount: number; arrival_date: number; status: string }>;
    const paid = payouts.filter((p) => p.status === 'paid');
    expect(paid.length).toBeGreaterThanOrEqual(4);
    expect([...(await links()).values()].every((t) => t === '')).toBe(true);

    // The bank: each paid payout lands 0–2 days after its arrival date, except the last two (not yet in the feed);
    // the same sums again 10 days later (look-alikes), money out of the same size, and a pending deposit.
    const landed = paid.slice(0, -2);
    const deposit = new Map(landed.map((p) => [p.id, newId()]));
    const feed: Txn[] = [
      ...landed.map((p, i) => ({ id: deposit.get(p.id)!, amountCents: p.amount, date: ymd(p.arrival_date, i % 3) })),
      ...landed.map((p) => ({ id: newId(), amountCents: p.amount, date: ymd(p.arrival_date, 10), name: 'CUSTOMER WIRE' })),
      ...landed.map((p) => ({ id: newId(), amountCents: -p.amount, date: ymd(p.arrival_date), name: 'RENT' })),
      { id: newId(), amountCents: paid.at(-1)!.amount, date: ymd(paid.at(-1)!.arrival_date), pending: true },
    ];
    // Another workspace's bank holds the missing payouts' deposits: they link nothing here.
    await page(newId(), [{ id: newId(), amountCents: paid.at(-2)!.amount, date: ymd(paid.at(-2)!.arrival_date) }]);
    // Delivered in two pages, the second page twice (a redelivery with a new event id).
    await page(workspaceId, feed.slice(0, 5));
    await page(workspaceId, feed.slice(5));
    await page(workspaceId, feed.slice(5));

    await expectEventually(
      async () => {
        const now = await links();
        for (const p of landed) expect(now.get(p.id), p.id).toBe(deposit.get(p.id));
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    const now = await links();
    expect(now.get(paid.at(-1)!.id)).toBe('');
    expect(now.get(paid.at(-2)!.id)).toBe('');
    const [count] = await db.adminDb('stripe_payout_links').where({ workspace_id: workspaceId }).count<Array<{ count: string }>>('* as count');
    expect(Number(count!.count)).toBe(landed.length);

    // The payout's gross-to-net equals its amount and the deposit it is linked to.
    const detail = await client.getStripePayout({ id: landed[0]!.id }, as(workspaceId));
    expect(detail.payout?.transactionId).toBe(deposit.get(landed[0]!.id));
    expect(Number(detail.composition!.netCents)).toBe(landed[0]!.amount);
    expect(
      Number(detail.composition!.grossCents) -
        Number(detail.composition!.feeCents) -
        Number(detail.composition!.refundCents) +
        Number(detail.composition!.adjustmentCents),
    ).toBe(landed[0]!.amount);

    // The bank withdraws the first deposit: its payout is unlinked, then meets the deposit that replaces it.
    const first = landed[0]!;
    await publishEvent(bus, 'banking', {
      type: EventType.BankTransactionRemoved,
      workspaceId,
      payload: { id: deposit.get(first.id)!, accountId: 'bank-account-1', externalId: 'x', version: 2n },
    });
    await expectEventually(async () => expect((await links()).get(first.id)).toBe(''), { timeoutMs: 20_000, intervalMs: 200 });
    const replacement = newId();
    await page(workspaceId, [{ id: replacement, amountCents: first.amount, date: ymd(first.arrival_date, 1) }]);
    await expectEventually(async () => expect((await links()).get(first.id)).toBe(replacement), { timeoutMs: 20_000, intervalMs: 200 });
    // The other payouts kept their links.
    for (const p of landed.slice(1)) expect((await links()).get(p.id)).toBe(deposit.get(p.id));
  });
});
