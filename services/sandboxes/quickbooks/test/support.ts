// Test helpers: the official packages pointed at a sandbox, and node-quickbooks' callbacks as promises.
import { createRequire } from 'node:module';
import OAuthClient from 'intuit-oauth';
import type QuickBooksTypes from 'node-quickbooks';
import type { QuickBooksSandbox } from '../src/index.js';

// node-quickbooks is CommonJS (`module.exports = QuickBooks`) while its types declare a default export.
type QuickBooksClass = typeof QuickBooksTypes.default;
export type QuickBooks = InstanceType<QuickBooksClass>;
export const QuickBooks = createRequire(import.meta.url)('node-quickbooks') as QuickBooksClass;

export interface QboResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

export interface Connection {
  oauth: OAuthClient;
  realmId: string;
  accessToken: string;
  refreshToken: string;
}

/** intuit-oauth's endpoints are class-wide: setAuthorizeURLs (its documented knob) points them at the sandbox. */
export function oauthClient(sandbox: QuickBooksSandbox, redirectUri = 'http://127.0.0.1:1/callback', secret = sandbox.clientSecret): OAuthClient {
  const client = new OAuthClient({ clientId: sandbox.clientId, clientSecret: secret, environment: 'sandbox', redirectUri });
  client.setAuthorizeURLs({
    authorizeEndpoint: sandbox.endpoints.authorizeEndpoint,
    tokenEndpoint: sandbox.endpoints.tokenEndpoint,
    revokeEndpoint: sandbox.endpoints.revokeEndpoint,
    userInfoEndpoint: sandbox.endpoints.userInfoEndpoint,
  });
  return client;
}

/** What a browser does with the authorize URL: follow it to the redirect URI (not followed further). */
export async function consent(authorizeUri: string): Promise<URL> {
  const res = await fetch(authorizeUri, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
  return new URL(location);
}

/** The whole OAuth round trip for `realmId` (queued as the next consent) or the default company. */
export async function connect(sandbox: QuickBooksSandbox, realmId?: string): Promise<Connection> {
  if (realmId) sandbox.queueConsent({ realmId });
  const oauth = oauthClient(sandbox);
  const back = await consent(oauth.authorizeUri({ scope: [OAuthClient.scopes.Accounting], state: 'state-1' }));
  const response = await oauth.createToken(back.toString());
  const token = response.getJson() as { access_token: string; refresh_token: string };
  return { oauth, realmId: back.searchParams.get('realmId')!, accessToken: token.access_token, refreshToken: token.refresh_token };
}

/** node-quickbooks for a connection: TOKEN_URL / REVOKE_URL are class-wide, `endpoint` is per instance. */
export function qboClient(sandbox: QuickBooksSandbox, connection: { realmId: string; accessToken: string; refreshToken: string }): QuickBooks {
  QuickBooks.TOKEN_URL = sandbox.endpoints.tokenEndpoint;
  QuickBooks.REVOKE_URL = sandbox.endpoints.revokeEndpoint;
  const qbo = new QuickBooks(
    sandbox.clientId,
    sandbox.clientSecret,
    connection.accessToken,
    false,
    connection.realmId,
    true,
    false,
    '75',
    '2.0',
    connection.refreshToken,
  );
  qbo.endpoint = sandbox.endpoints.v3EndpointBaseUrl;
  return qbo;
}

type Callback = (err: unknown, data: unknown, res?: { status: number; headers: Record<string, unknown> }) => void;
type Method = (...args: unknown[]) => void;

/** Calls a node-quickbooks method; resolves with status and body, also for QBO's error answers. */
export function call<T = Record<string, unknown>>(qbo: QuickBooks, method: string, ...args: unknown[]): Promise<QboResult<T>> {
  const fn = (qbo as unknown as Record<string, Method>)[method];
  if (typeof fn !== 'function') throw new Error(`node-quickbooks has no ${method}`);
  return new Promise((resolve) => {
    const callback: Callback = (err, data, res) => {
      const response = (err as { response?: { status: number; data: unknown; headers: Record<string, unknown> } } | null)?.response;
      if (response) resolve({ status: response.status, body: response.data as T, headers: response.headers });
      else if (err) resolve({ status: res?.status ?? 200, body: err as T, headers: res?.headers ?? {} });
      else resolve({ status: res?.status ?? 200, body: data as T, headers: res?.headers ?? {} });
    };
    fn.call(qbo, ...args, callback);
  });
}

/** The first error of a QBO Fault body. */
export function fault(body: unknown): { Message: string; Detail: string; code: string } | undefined {
  return (body as { Fault?: { Error?: Array<{ Message: string; Detail: string; code: string }> } }).Fault?.Error?.[0];
}
