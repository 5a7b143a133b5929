// The integrations service on real PostgreSQL, NATS JetStream and the Stripe sandbox (the official SDK): connect
// seals the token at rest and syncs every object type to equal the account; a worker killed mid-sync (it stops
// dead after k committed pages, neither finishing the job nor acknowledging its message) is resumed by a new
// process from the committed cursors and ends equal to an uninterrupted sync; webhooks are verified, applied
// once per event id and in any order end in the newest state, and a signed event with bad money, currency or ids
// is refused with nothing stored. Size: STRIPE_SYNC_TEST_CUSTOMERS (default 120,
// about 2,000 objects; 1,220 is the 20,000).
import { Code, ConnectError } from '@connectrpc/connect';
import { createLogger, createServiceClient, errorInfoOf, newId, tenantHeaders, withTenant, type Role } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { IntegrationsService as IntegrationsRpc } from '@ledgerline/proto/integrations/v1/integrations_pb';
import { startStripeSandbox, type StripeSandbox } from '@ledgerline/stripe-sandbox';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationsConfigSchema } from '../src/config.js';
import { createIntegrationsService, type IntegrationsOverrides, type IntegrationsService } from '../src/service.js';
import { integrationsMigrations } from '../src/store/migrations.js';
import { OBJECT_TYPES } from '../src/stripe/payloads.js';

const CUSTOMERS = Number(process.env.STRIPE_SYNC_TEST_CUSTOMERS ?? 120);
const WEBHOOK_SECRET = 'whsec_service_test';

interface Instance {
  db: TestDatabase;
  bus: Awaited<ReturnType<typeof createTestBus>>;
  service: IntegrationsService;
  client: ReturnType<typeof createServiceClient<typeof IntegrationsRpc>>;
  workspaceId: string;
}

let sandbox: StripeSandbox;
const running: Instance[] = [];

async function start(db: TestDatabase, bus: Instance['bus'], overrides: IntegrationsOverrides = {}): Promise<Omit<Instance, 'workspaceId'>> {
  const config = integrationsConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    INTEGRATIONS_PORT: '0',
    INTEGRATIONS_DATABASE_URL: db.appUrl,
    STRIPE_API_URL: sandbox.url,
    STRIPE_CONNECT_URL: sandbox.url,
    STRIPE_SECRET_KEY: sandbox.secretKey,
    STRIPE_CLIENT_ID: sandbox.clientId,
    STRIPE_WEBHOOK_SECRET: `whsec_old_rolled_out,${WEBHOOK_SECRET}`,
    STRIPE_SYNC_ACK_WAIT_MS: '1500',
    STRIPE_SYNC_RETRY_BASE_MS: '200',
  });
  const service = await createIntegrationsService(config, { db: db.appDb, bus, logger: createLogger('integrations-test', 'silent'), ...overrides });
  const client = createServiceClient(IntegrationsRpc, {
    baseUrl: await service.listen(),
    timeoutMs: 20_000,
    trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'integrations-test', audience: 'integrations' },
  });
  return { db, bus, service, client };
}

const as = (workspaceId: string, role: Role = 'Owner') => ({ headers: tenantHeaders({ workspaceId, userId: newId(), role }) });

async function refusal(p: Promise<unknown>): Promise<{ code: Code; fields: string[] }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, fields: (errorInfoOf(e)?.fields ?? []).map((f) => f.field) };
  }
  throw new Error('expected a refusal');
}

const synced = (i: Instance) =>
  withTenant(i.db.appDb, { workspaceId: i.workspaceId }, (trx) => trx('stripe_objects').orderBy('stripe_id').select('stripe_id', 'object_type', 'payload'));

async function waitCompleted(i: Instance, timeoutMs = 120_000): Promise<void> {
  await expectEventually(
    async () => {
      const status = await i.client.getStripeSyncStatus({}, as(i.workspaceId));
      expect(status.status).toBe('completed');
    },
    { timeoutMs, intervalMs: 200 },
  );
}

let account: ReturnType<StripeSandbox['createAccount']>;
let reference: Instance;

beforeAll(async () => {
  sandbox = await startStripeSandbox();
  account = sandbox.createAccount({ seed: 'service-test', customers: CUSTOMERS, months: 12 });
  const [db, bus] = await Promise.all([createTestDatabase('integrations', integrationsMigrations), createTestBus('integrations-test')]);
  reference = { ...(await start(db, bus)), workspaceId: newId() };
  running.push(reference);
}, 60_000);
afterAll(async () => {
  for (const i of running) {
    await i.service.stop().catch(() => undefined);
    await i.bus.close().catch(() => undefined);
    await i.db.drop().catch(() => undefined);
  }
  await sandbox?.close();
});

describe('connect and sync', () => {
  it('seals the token, syncs every object type to equal the Stripe account, and reports the status', async () => {
    const { workspaceId, client } = reference;
    const bad = await refusal(client.connectStripe({ scope: 'everything', code: 'nope' }, as(workspaceId)));
    expect(bad).toEqual({ code: Code.InvalidArgument, fields: ['scope', 'code'] });
    const viewer = await refusal(client.connectStripe({ scope: 'read_write', code: account.code }, as(workspaceId, 'Viewer')));
    expect(viewer.code).toBe(Code.PermissionDenied);

    const connected = await client.connectStripe({ scope: 'read_write', code: account.code }, as(workspaceId));
    expect(connected.account).toMatchObject({ stripeAccountId: account.id, scope: 'read_write', defaultCurrency: 'usd' });
    const [row] = await reference.db.adminDb('stripe_connections').select('access_token', 'access_token_key_id');
    expect(row.access_token).toMatch(/^v1\./);
    expect(row.access_token).not.toContain('sk_test');

    await waitCompleted(reference);
    const status = await client.getStripeSyncStatus({}, as(workspaceId));
    for (const type of OBJECT_TYPES) {
      expect(Number(status.objects.find((o) => o.objectType === type)?.count), type).toBe(account.counts[type] ?? 0);
    }
    expect((await synced(reference)).length).toBe(OBJECT_TYPES.reduce((s, t) => s + (account.counts[t] ?? 0), 0));

    // Another workspace sees no connection.
    expect((await refusal(client.getStripeAccount({}, as(newId())))).code).toBe(Code.NotFound);
    // The same Stripe account cannot be connected to a second workspace.
    const twice = await refusal(client.connectStripe({ scope: 'read_write', code: sandbox.authorizationCode(account.id) }, as(newId())));
    expect(twice.code).toBe(Code.AlreadyExists);
  });

  it('a worker killed mid-sync is resumed after restart from the committed cursors, and the result equals the uninterrupted sync', async () => {
    const [db, bus] = await Promise.all([createTestDatabase('integrations', integrationsMigrations), createTestBus('integrations-crash')]);
    const workspaceId = newId();
    const crashing = { ...(await start(db, bus, { crashAfterPages: 5 })), workspaceId };
    await crashing.client.connectStripe({ scope: 'read_write', code: sandbox.authorizationCode(account.id) }, as(workspaceId));
    await expectEventually(async () => {
      const [cursor] = await db.adminDb('stripe_sync_cursors').whereNotNull('starting_after').select('object_type');
      expect(cursor).toBeDefined();
    });
    const partial = await db.adminDb('stripe_objects').count<Array<{ count: string }>>('* as count');
    expect(Number(partial[0]!.count)).toBeGreaterThan(0);
    expect(Number(partial[0]!.count)).toBeLessThan((await synced(reference)).length);
    const [job] = await db.adminDb('stripe_sync_jobs').select('status');
    expect(job.status).toBe('active');
    await crashing.service.stop();
    await new Promise((r) => setTimeout(r, 100));

    // A new process on the same database and queue: its start-up sweep and JetStream's redelivery hand it the job.
    const restarted = { ...(await start(db, bus)), workspaceId };
    running.push(restarted);
    await waitCompleted(restarted);
    expect(await synced(restarted)).toEqual(await synced(reference));
    const [done] = await db.adminDb('stripe_sync_jobs').select('status', 'attempts', 'objects_synced');
    expect(done).toMatchObject({ status: 'completed', attempts: 2 });
    // Resumed, not restarted: every object was written once over both runs (a re-read page would count twice).
    expect(Number(done.objects_synced)).toBe((await synced(reference)).length);
  });
});

describe('webhooks', () => {
  it('refuses a bad signature and changes nothing; the same events five times and out of order apply once each and end in the newest state', async () => {
    const { client, workspaceId } = reference;
    sandbox.setAutoDeliver(false);
    const stripe = new Stripe(sandbox.secretKey, { ...sandbox.sdkConfig, maxNetworkRetries: 0 });
    const customerId = sandbox.objects(account.id, 'customer')[0]!.id;
    await stripe.customers.update(customerId, { name: 'Second name' }, { stripeAccount: account.id });
    await new Promise((r) => setTimeout(r, 1100)); // a later second: the next state is strictly newer
    await stripe.customers.update(customerId, { name: 'Third name' }, { stripeAccount: account.id });
    const [newer, older] = (await stripe.events.list({ type: 'customer.updated', limit: 2 }, { stripeAccount: account.id })).data;
    const now = Math.floor(Date.now() / 1000);
    const body = (e: Stripe.Event) => JSON.stringify(e, null, 2);
    const signed = (e: Stripe.Event) => ({ body: new TextEncoder().encode(body(e)), signature: sandbox.signatureFor(body(e), WEBHOOK_SECRET, now) });

    const before = await synced(reference);
    const forged = await refusal(client.handleStripeWebhook({ body: signed(newer!).body, signature: sandbox.signatureFor(body(newer!), 'whsec_wrong', now) }));
    expect(forged).toEqual({ code: Code.InvalidArgument, fields: ['stripe-signature'] });
    const tampered = await refusal(
      client.handleStripeWebhook({ body: new TextEncoder().encode(body(newer!).replace('Third', 'Fourth')), signature: signed(newer!).signature }),
    );
    expect(tampered.code).toBe(Code.InvalidArgument);
    const stale = await refusal(client.handleStripeWebhook({ ...signed(newer!), signature: sandbox.signatureFor(body(newer!), WEBHOOK_SECRET, now - 600) }));
    expect(stale.code).toBe(Code.InvalidArgument);
    expect(await synced(reference)).toEqual(before);
    expect(await reference.db.adminDb('stripe_events').select('event_id')).toEqual([]);

    // Provider payloads are validated like user input: float money, a bad currency or a huge array is refused whole.
    const charge = sandbox.objects(account.id, 'charge')[0]!;
    const bad = (patch: Record<string, unknown>) => {
      const event = {
        id: `evt_bad${Object.keys(patch)[0]}`,
        object: 'event',
        type: 'charge.updated',
        created: now,
        account: account.id,
        data: { object: { ...charge, ...patch } },
      };
      const text = JSON.stringify(event);
      return { body: new TextEncoder().encode(text), signature: sandbox.signatureFor(text, WEBHOOK_SECRET, now) };
    };
    for (const patch of [{ amount: 10.5 }, { currency: 'US Dollars' }, { amount: 1e15 }, { id: 'not-a-charge' }]) {
      expect(await refusal(client.handleStripeWebhook(bad(patch))), JSON.stringify(patch)).toEqual({ code: Code.InvalidArgument, fields: ['body'] });
    }
    expect(await synced(reference)).toEqual(before);
    expect(await reference.db.adminDb('stripe_events').select('event_id')).toEqual([]);

    const outcomes: string[] = [];
    for (const event of [newer!, older!]) for (let i = 0; i < 5; i++) outcomes.push((await client.handleStripeWebhook(signed(event))).outcome);
    expect(outcomes).toEqual(['processed', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'stale', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    const [stored] = await withTenant(reference.db.appDb, { workspaceId }, (trx) => trx('stripe_objects').where({ stripe_id: customerId }).select('payload'));
    expect(stored.payload.name).toBe('Third name');
    expect(await reference.db.adminDb('stripe_events').orderBy('event_id').select('event_id')).toHaveLength(2);
    sandbox.setAutoDeliver(true);
  });
});
