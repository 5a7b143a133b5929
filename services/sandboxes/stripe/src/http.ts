// The HTTP edge: Stripe's REST API under /v1 (form-encoded bodies, `Authorization: Bearer`, `Stripe-Account`,
// `Idempotency-Key`), Connect OAuth under /oauth (the SDK's `connect` base resolves to the same host when its
// `host` is overridden), and the development controls under /ledgerline (no credentials; never Stripe's paths).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import qs from 'qs';
import { OAuthError, StripeApiError, stripeErrors } from './errors.js';
import { API_VERSION, type StripeSandboxCore } from './core.js';

const MAX_BODY_BYTES = 1_000_000;

/** A browser page outside /v1 (billing.ts: the hosted checkout): undefined when the path is not its own. */
export type PageHandler = (method: string, path: string, form: URLSearchParams) => { status: number; html?: string; location?: string } | undefined;

export function createHttpServer(
  core: StripeSandboxCore,
  controls: (method: string, path: string, body: Record<string, unknown>) => Promise<unknown>,
  pages: PageHandler[] = [],
): Server {
  return createServer((req, res) => {
    handle(core, controls, req, res, pages).catch((error: unknown) => {
      console.error('stripe sandbox: unhandled error', error);
      if (!res.headersSent) send(res, 500, stripeErrors.internal().body(), requestId());
      else res.end();
    });
  });
}

function requestId(): string {
  return `req_${randomBytes(7).toString('base64url')}`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function bearerOf(req: IncomingMessage): string | undefined {
  const auth = header(req, 'authorization');
  if (!auth) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(auth);
  if (match) return match[1]!.trim();
  // Basic auth with the key as the user name (curl -u sk_test_...:) is also accepted by Stripe.
  const basic = /^Basic\s+(.+)$/i.exec(auth);
  if (basic) return Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0];
  return undefined;
}

async function handle(
  core: StripeSandboxCore,
  controls: (method: string, path: string, body: Record<string, unknown>) => Promise<unknown>,
  req: IncomingMessage,
  res: ServerResponse,
  pages: PageHandler[] = [],
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const method = req.method ?? 'GET';
  const id = requestId();

  if (path.startsWith('/checkout/')) {
    const form = new URLSearchParams(method === 'POST' ? await readBody(req) : url.search);
    for (const page of pages) {
      const answer = page(method, path, form);
      if (!answer) continue;
      res.writeHead(answer.status, answer.location ? { Location: answer.location } : { 'content-type': 'text/html; charset=utf-8' }).end(answer.html ?? '');
      return;
    }
  }

  if (path === '/ledgerline' || path.startsWith('/ledgerline/')) {
    try {
      const raw = await readBody(req);
      let body: Record<string, unknown> = {};
      if (raw.trim() !== '') {
        const parsed: unknown = JSON.parse(raw);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ControlError(400, 'body must be a JSON object');
        body = parsed as Record<string, unknown>;
      }
      send(res, 200, await controls(method, path.slice('/ledgerline'.length), body), id);
    } catch (error) {
      if (error instanceof ControlError) send(res, error.status, { error: error.message }, id);
      else if (error instanceof StripeApiError) send(res, error.status, error.body(), id);
      else if (error instanceof SyntaxError) send(res, 400, { error: 'body must be JSON' }, id);
      else throw error;
    }
    return;
  }

  if (path === '/oauth/authorize' && method === 'GET') {
    try {
      const location = core.authorize(url.searchParams, undefined);
      res.writeHead(302, { Location: location, 'Request-Id': id }).end();
    } catch (error) {
      if (error instanceof OAuthError) send(res, error.status, error.body(), id);
      else throw error;
    }
    return;
  }

  try {
    const raw = await readBody(req);
    const params = (method === 'GET' || method === 'DELETE') && raw === '' ? parseForm(url.search.slice(1)) : parseForm(raw);
    if (path === '/oauth/token' && method === 'POST') return send(res, 200, core.oauthToken(params, bearerOf(req)), id);
    if (path === '/oauth/deauthorize' && method === 'POST') return send(res, 200, core.deauthorize(params, bearerOf(req)), id);
    if (!path.startsWith('/v1/')) throw stripeErrors.unrecognizedUrl(method, path);
    const caller = core.authenticate(bearerOf(req), header(req, 'stripe-account'));
    const segments = path.slice('/v1/'.length).split('/').map(decodeURIComponent);
    const key = method === 'POST' ? header(req, 'idempotency-key') : undefined;
    const answer = core.idempotent(`${caller.account.id}:${bearerOf(req) ?? ''}`, key, { path, params }, () => core.route(method, segments, params, caller));
    send(res, answer.status, answer.body, id, {
      ...(key ? { 'Idempotency-Key': key } : {}),
      ...(answer.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
      ...(caller.platform ? {} : { 'Stripe-Account': caller.account.id }),
    });
  } catch (error) {
    if (error instanceof StripeApiError) send(res, error.status, error.body(), id);
    else if (error instanceof OAuthError) send(res, error.status, error.body(), id);
    else {
      console.error(`stripe sandbox: ${method} ${path} failed`, error);
      send(res, 500, stripeErrors.internal().body(), id);
    }
  }
}

/** Stripe's form encoding: `a[b]=c`, `expand[]=x` / `expand[0]=x`, `metadata[key]=value`. */
function parseForm(text: string): Record<string, unknown> {
  if (text === '') return {};
  return qs.parse(text, { depth: 5, arrayLimit: 100, parameterLimit: 1000, allowDots: false }) as Record<string, unknown>;
}

export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new StripeApiError(413, 'invalid_request_error', 'Request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, id: string, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Request-Id': id,
    'Stripe-Version': API_VERSION,
    ...extra,
  });
  res.end(text);
}
