// The QuickBooks connection of the integrations service on real PostgreSQL and NATS, against the QuickBooks
// sandbox through the official intuit-oauth and node-quickbooks packages: the authorize link's state is the
// workspace's, used once; the code exchange seals both tokens at rest; an expired access token is refreshed (the
// new refresh token stored at once, so a second refresh works too); a refused refresh marks the connection
// reconnect-required; disconnect revokes the grant at Intuit. Bad input answers the field; another workspace
// gets 404.
import { Code, ConnectError } from '@connectrpc/connect';
import { createLogger, createServiceClient, errorInfoOf, newId, tenantHeaders, type Role } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { QuickBooksService as QuickBooksRpc } from '@ledgerline/proto/integrations/v1/quickbooks_pb';
import { startQuickBooksSandbox, type QuickBooksSandbox } from '@ledgerline/quickbooks-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationsConfigSchema } from '../src/config.js';
import { qboCall, quickBooksApi, QuickBooksCallError } from '../src/quickbooks/client.js';
import { createIntegrationsService, type IntegrationsService } from '../src/service.js';
import { integrationsMigrations } from '../src/store/migrations.js';

const REDIRECT = 'http://127.0.0.1:1/qb-sync';

let sandbox: QuickBooksSandbox;
let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let service: IntegrationsService;
let client: ReturnType<typeof createServiceClient<typeof QuickBooksRpc>>;
let config: ReturnType<typeof integrationsConfigSchema.parse>;

const as = (workspaceId: string, role: Role = 'Owner') => ({ headers: tenantHeaders({ workspaceId, userId: newId(), role }) });

async function refusal(p: Promise<unknown>): Promise<{ code: Code; fields: string[]; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, fields: (errorInfoOf(e)?.fields ?? []).map((f) => f.field), message: e.rawMessage };
  }
  throw new Error('expected a refusal');
}

/** What the browser does: opens the link; the sandbox consents at once and redirects back with code, state, realmId. */
async function consent(url: string): Promise<{ code: string; state: string; realmId: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  const back = new URL(res.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')!, realmId: back.searchParams.get('realmId')! };
}

beforeAll(async () => {
  sandbox = await startQuickBooksSandbox({ port: 0 });
  [db, bus] = await Promise.all([createTestDatabase('integrations', integrationsMigrations), createTestBus('integrations-qbo-connect')]);
  config = integrationsConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    INTEGRATIONS_PORT: '0',
    INTEGRATIONS_DATABASE_URL: db.appUrl,
    QUICKBOOKS_CLIENT_ID: sandbox.clientId,
    QUICKBOOKS_CLIENT_SECRET: sandbox.clientSecret,
    QUICKBOOKS_REDIRECT_URI: REDIRECT,
    QUICKBOOKS_AUTHORIZE_URL: sandbox.endpoints.authorizeEndpoint,
    QUICKBOOKS_TOKEN_URL: sandbox.endpoints.tokenEndpoint,
    QUICKBOOKS_REVOKE_URL: sandbox.endpoints.revokeEndpoint,
    QUICKBOOKS_USERINFO_URL: sandbox.endpoints.userInfoEndpoint,
    QUICKBOOKS_API_BASE_URL: sandbox.endpoints.v3EndpointBaseUrl,
  });
  service = await createIntegrationsService(config, { db: db.appDb, bus, logger: createLogger('integrations-test', 'silent'), workers: false });
  client = createServiceClient(QuickBooksRpc, {
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

describe('QuickBooks connection', () => {
  const workspaceId = newId();
  const other = newId();
  let integrationId: string;

  it('links with a one-time state of the workspace, exchanges the code and seals both tokens', async () => {
    const viewer = await refusal(client.getQuickBooksOAuthLink({}, as(workspaceId, 'Viewer')));
    expect(viewer.code).toBe(Code.PermissionDenied);

    const link = await client.getQuickBooksOAuthLink({}, as(workspaceId));
    const url = new URL(link.url);
    expect(`${url.origin}${url.pathname}`).toBe(sandbox.endpoints.authorizeEndpoint);
    expect(url.searchParams.get('client_id')).toBe(sandbox.clientId);
    expect(url.searchParams.get('state')).toBe(link.state);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    const back = await consent(link.url);
    expect(back.state).toBe(link.state);

    const bad = await refusal(client.connectQuickBooks({ code: '', state: 'x'.repeat(300), realmId: 'abc' }, as(workspaceId)));
    expect(bad).toMatchObject({ code: Code.InvalidArgument, fields: ['code', 'state', 'realmId'] });
    const nul = await refusal(client.connectQuickBooks({ ...back, code: 'a\u0000b' }, as(workspaceId)));
    expect(nul).toMatchObject({ code: Code.InvalidArgument, fields: ['code'] });
    // The state of this workspace's link is not another workspace's.
    const stolen = await refusal(client.connectQuickBooks(back, as(other)));
    expect(stolen).toMatchObject({ code: Code.InvalidArgument, fields: ['state'] });
    const forged = await refusal(client.connectQuickBooks({ ...back, state: 'forged-state' }, as(workspaceId)));
    expect(forged).toMatchObject({ code: Code.InvalidArgument, fields: ['state'] });
    expect(await db.adminDb('quickbooks_connections').select('id')).toEqual([]);

    const connected = await client.connectQuickBooks(back, as(workspaceId));
    expect(connected.integration).toMatchObject({
      workspaceId,
      realmId: sandbox.defaultRealmId,
      companyName: sandbox.getCompany(sandbox.defaultRealmId)!.companyName,
      isReconnectRequired: false,
      type: 'quickbooks',
      lastSyncedAt: '',
    });
    integrationId = connected.integration!.id;
    const [row] = await db.adminDb('quickbooks_connections').select('*');
    expect(row.access_token).toMatch(/^v1\./);
    expect(row.refresh_token).toMatch(/^v1\./);
    const grant = await service.useCases.quickbooks.grant({ workspaceId });
    expect(row.access_token).not.toContain(grant.accessToken);
    expect(row.refresh_token).not.toContain(grant.refreshToken);

    // The state was used: the same callback again is refused (and the workspace is connected already).
    const again = await refusal(client.connectQuickBooks(back, as(workspaceId)));
    expect(again.code).toBe(Code.AlreadyExists);
    expect((await client.getQuickBooksIntegration({}, as(workspaceId))).integration?.id).toBe(integrationId);
  });

  it('another workspace: its own link cannot connect a company connected elsewhere; it sees 404', async () => {
    expect((await refusal(client.getQuickBooksIntegration({}, as(other)))).code).toBe(Code.NotFound);
    expect((await refusal(client.disconnectQuickBooks({ id: integrationId }, as(other)))).code).toBe(Code.NotFound);
    expect(await refusal(client.disconnectQuickBooks({ id: 'not-a-uuid' }, as(other)))).toMatchObject({ code: Code.InvalidArgument, fields: ['id'] });
    sandbox.queueConsent({ realmId: sandbox.defaultRealmId });
    const back = await consent((await client.getQuickBooksOAuthLink({}, as(other))).url);
    expect((await refusal(client.connectQuickBooks(back, as(other)))).code).toBe(Code.AlreadyExists);
    // A used state cannot be replayed, even after a failed connect.
    expect(await refusal(client.connectQuickBooks(back, as(other)))).toMatchObject({ fields: ['state'] });
  });

  it('refreshes an expired access token through intuit-oauth and stores the new refresh token at once', async () => {
    const tenant = { workspaceId };
    const before = await service.useCases.quickbooks.grant(tenant);
    expect(sandbox.expireAccessTokens(sandbox.defaultRealmId)).toBeGreaterThan(0);
    // The stored access token is not near expiry by its clock, so the call meets QBO's 401 and refreshes then.
    const info = await service.useCases.quickbooks.call<{ CompanyName: string }>(tenant, 'getCompanyInfo', sandbox.defaultRealmId);
    expect(info.CompanyName).toBe(sandbox.getCompany(sandbox.defaultRealmId)!.companyName);
    const after = await service.useCases.quickbooks.grant(tenant);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    // The retired pair is refused by QBO; a second expiry is refreshed with the stored new refresh token.
    const retired = await qboCall(quickBooksApi(config, before), config, 'getCompanyInfo', before.realmId).catch((e: unknown) => e);
    expect(retired).toBeInstanceOf(QuickBooksCallError);
    expect((retired as QuickBooksCallError).status).toBe(401);
    sandbox.expireAccessTokens(sandbox.defaultRealmId);
    await service.useCases.quickbooks.call(tenant, 'getCompanyInfo', sandbox.defaultRealmId);
    expect((await service.useCases.quickbooks.grant(tenant)).refreshToken).not.toBe(after.refreshToken);
  });

  it('disconnect revokes the grant at Intuit and forgets the connection', async () => {
    const grant = await service.useCases.quickbooks.grant({ workspaceId });
    const viewer = await refusal(client.disconnectQuickBooks({ id: integrationId }, as(workspaceId, 'Viewer')));
    expect(viewer.code).toBe(Code.PermissionDenied);
    expect((await client.disconnectQuickBooks({ id: integrationId }, as(workspaceId))).id).toBe(integrationId);
    expect(await db.adminDb('quickbooks_connections').select('id')).toEqual([]);
    const revoked = await qboCall(quickBooksApi(config, grant), config, 'getCompanyInfo', grant.realmId).catch((e: unknown) => e);
    expect((revoked as QuickBooksCallError).status).toBe(401);
    expect((await refusal(client.getQuickBooksIntegration({}, as(workspaceId)))).code).toBe(Code.NotFound);
  });

  it('a refresh Intuit refuses marks the connection reconnect-required', async () => {
    const workspace = newId();
    sandbox.queueConsent({ realmId: sandbox.createCompany({ seed: 2, history: false }).realmId });
    const link = await client.getQuickBooksOAuthLink({}, as(workspace));
    await client.connectQuickBooks(await consent(link.url), as(workspace));
    const grant = await service.useCases.quickbooks.grant({ workspaceId: workspace });
    // The user disconnects the app in QuickBooks: the grant is revoked behind our back.
    const { revokeGrant } = await import('../src/quickbooks/client.js');
    await revokeGrant(config, grant.refreshToken);
    const refused = await refusal(service.useCases.quickbooks.call({ workspaceId: workspace }, 'getCompanyInfo', grant.realmId));
    expect(refused.message).toBe('QuickBooks needs to be connected again');
    expect((await client.getQuickBooksIntegration({}, as(workspace))).integration?.isReconnectRequired).toBe(true);
  });
});
