// The HTTP edge: Plaid's endpoints (POST, JSON, client_id/secret from the PLAID-CLIENT-ID / PLAID-SECRET
// headers or the body) and the development controls under /ledgerline (no credentials; never Plaid's paths).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { newRequestId } from './domain/ids.js';
import { PlaidApiError, plaidErrors } from './errors.js';
import { ControlError, type LinkCompleteInput, type PlaidSandboxCore } from './sandbox.js';

const MAX_BODY_BYTES = 1_000_000;

type Json = Record<string, unknown>;

export function createHttpServer(core: PlaidSandboxCore): Server {
  return createServer((req, res) => {
    handle(core, req, res).catch((error: unknown) => {
      console.error('plaid sandbox: unhandled error', error);
      if (!res.headersSent) sendJson(res, 500, plaidErrors.internal().body(newRequestId()));
      else res.end();
    });
  });
}

async function handle(core: PlaidSandboxCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (path === '/ledgerline' || path.startsWith('/ledgerline/')) {
    // Development pages (the sandbox link flow) call the controls from the browser.
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      res
        .writeHead(204, { 'Access-Control-Allow-Methods': 'GET, POST', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Max-Age': '600' })
        .end();
      return;
    }
    await handleControl(core, req, res, path.slice('/ledgerline'.length), url.searchParams);
    return;
  }
  const requestId = newRequestId();
  try {
    const handler = core.endpoints[path];
    if (!handler || req.method !== 'POST') {
      await readBody(req).catch(() => undefined);
      throw plaidErrors.notFound();
    }
    const body = parseJson(await readBody(req));
    authenticate(core, req, body);
    core.checkInjectedFailure(path, body);
    const result = await handler(body);
    sendJson(res, 200, { ...result, request_id: requestId });
  } catch (error) {
    if (error instanceof PlaidApiError) {
      sendJson(res, error.status, error.body(requestId));
      return;
    }
    console.error(`plaid sandbox: ${path} failed`, error);
    sendJson(res, 500, plaidErrors.internal().body(requestId));
  }
}

function authenticate(core: PlaidSandboxCore, req: IncomingMessage, body: Json): void {
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const clientId = header('plaid-client-id') ?? (typeof body.client_id === 'string' ? body.client_id : undefined);
  const secret = header('plaid-secret') ?? (typeof body.secret === 'string' ? body.secret : undefined);
  const missing = [clientId ? undefined : 'client_id', secret ? undefined : 'secret'].filter((f): f is string => f !== undefined);
  if (missing.length > 0) throw plaidErrors.missingFields(missing);
  if (!safeEqual(clientId ?? '', core.clientId) || !safeEqual(secret ?? '', core.secret)) throw plaidErrors.invalidApiKeys();
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function parseJson(text: string): Json {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw plaidErrors.invalidBody();
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw plaidErrors.invalidBody();
  return value as Json;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(plaidErrors.invalidField('request body is too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

// ── /ledgerline controls ─────────────────────────────────────────────────────────────────────────────

async function handleControl(core: PlaidSandboxCore, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
  try {
    const raw = await readBody(req);
    let body: Json = {};
    if (raw.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        body = parsed as Json;
      } catch {
        throw new ControlError(400, 'body must be a JSON object');
      }
    }
    const result = await routeControl(core, req.method ?? 'GET', path, body, query);
    sendJson(res, 200, result);
  } catch (error) {
    if (error instanceof ControlError) sendJson(res, error.status, { error: error.message });
    else if (error instanceof PlaidApiError) sendJson(res, error.status, error.body(newRequestId()));
    else {
      console.error(`plaid sandbox: control ${path} failed`, error);
      sendJson(res, 500, { error: 'control failed' });
    }
  }
}

async function routeControl(core: PlaidSandboxCore, method: string, path: string, body: Json, query: URLSearchParams): Promise<unknown> {
  const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
  const is = (m: string, ...pattern: string[]): boolean =>
    method === m && segments.length === pattern.length && pattern.every((p, i) => p === '*' || p === segments[i]);
  const id = segments[1] ?? '';

  if (is('GET', 'health')) return { ok: true };
  if (is('GET', 'institutions')) return { institutions: core.institutions() };
  if (is('GET', 'items')) return { items: core.listItems() };
  if (is('POST', 'items')) return core.createItem(body);
  if (is('POST', 'public-tokens')) return { public_token: core.createPublicToken(body) };
  if (is('POST', 'link', 'complete')) return core.completeLink(body as unknown as LinkCompleteInput);
  if (is('GET', 'items', '*')) return core.getItem(id);
  if (is('GET', 'items', '*', 'transactions', 'pending')) return { transactions: core.pendingTransactions(id) };
  if (is('GET', 'items', '*', 'balances')) return { accounts: core.accountStates(id) };
  if (is('POST', 'items', '*', 'release-history')) return core.releaseHistory(id, body);
  if (is('GET', 'items', '*', 'transactions', '*')) {
    const txn = core.getTransaction(id, segments[3] ?? '');
    if (!txn) throw new ControlError(404, `no transaction ${segments[3] ?? ''}`);
    return txn;
  }
  if (is('POST', 'items', '*', 'transactions', 'add')) return core.addTransactions(id, body);
  if (is('POST', 'items', '*', 'transactions', 'modify')) return core.modifyTransactions(id, body);
  if (is('POST', 'items', '*', 'transactions', 'remove')) return core.removeTransactions(id, body);
  if (is('POST', 'items', '*', 'transactions', 'post-pending')) return core.postPendingTransactions(id, body);
  if (is('POST', 'items', '*', 'require-relogin')) return { webhook: await core.requireRelogin(id, body) };
  if (is('POST', 'items', '*', 'repair-login')) return { webhook: await core.repairLogin(id, body) };
  if (is('POST', 'items', '*', 'fire-webhook')) {
    if (typeof body.webhook_code !== 'string') throw new ControlError(400, 'webhook_code is required');
    return { webhook: await core.fireWebhook(id, body.webhook_code) };
  }
  if (is('GET', 'webhooks')) return { deliveries: core.webhookDeliveries({ item: query.get('item_id') ?? undefined }) };
  if (is('POST', 'webhooks', '*', 'replay')) return core.replayWebhook(id);
  if (is('POST', 'webhook-keys', 'rotate')) return { key: await core.keys.rotate() };
  if (is('POST', 'webhook-signature')) {
    if (typeof body.body !== 'string') throw new ControlError(400, 'body (the exact webhook body text) is required');
    return { plaid_verification: await core.signWebhookBody(body.body, { iat: typeof body.iat === 'number' ? body.iat : undefined }) };
  }
  if (is('POST', 'fail-next')) {
    if (typeof body.error !== 'string') throw new ControlError(400, 'error is required');
    core.failNext({
      error: body.error,
      endpoint: typeof body.endpoint === 'string' ? body.endpoint : undefined,
      item: typeof body.item === 'string' ? body.item : undefined,
      times: typeof body.times === 'number' ? body.times : undefined,
    });
    return { ok: true };
  }
  if (is('POST', 'fail-next', 'clear')) {
    core.clearFailures();
    return { ok: true };
  }
  throw new ControlError(404, `no control ${method} /ledgerline${path}`);
}
