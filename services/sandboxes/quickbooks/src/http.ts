// The HTTP edge: Intuit OAuth 2.0 (authorize, token, revoke), the QuickBooks Online Accounting API v3 under
// /v3/company/{realmId}, and the development controls under /ledgerline (no credentials; never Intuit's paths).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { entityTypeOf, WRITABLE_TYPES, type Company } from './domain/company.js';
import { faults, QboFault } from './domain/faults.js';
import { isObject, qboTime, type Json } from './domain/wire.js';
import { ControlError, OAuthError, type CreateCompanyInput, type QuickBooksSandboxCore } from './sandbox.js';

const MAX_BODY_BYTES = 1_000_000;

export const PATHS = {
  authorize: '/connect/oauth2',
  token: '/oauth2/v1/tokens/bearer',
  revoke: '/v2/oauth2/tokens/revoke',
  userInfo: '/v1/openid_connect/userinfo',
  v3: '/v3/company/',
} as const;

export function createHttpServer(core: QuickBooksSandboxCore): Server {
  return createServer((req, res) => {
    handle(core, req, res).catch((error: unknown) => {
      console.error('quickbooks sandbox: unhandled error', error);
      if (!res.headersSent) sendJson(res, 500, faults.internal().body(qboTime(core.now())));
      else res.end();
    });
  });
}

async function handle(core: QuickBooksSandboxCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (path === '/ledgerline' || path.startsWith('/ledgerline/')) {
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      res
        .writeHead(204, { 'Access-Control-Allow-Methods': 'GET, POST', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Max-Age': '600' })
        .end();
      return;
    }
    await handleControl(core, req, res, path.slice('/ledgerline'.length));
    return;
  }
  if (path === PATHS.authorize && req.method === 'GET') {
    await drain(req);
    try {
      const location = core.authorize(url.searchParams);
      res.writeHead(302, { Location: location, 'Cache-Control': 'no-store' }).end();
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      const text = `<!doctype html><title>Intuit</title><p>${error.error}: ${escapeHtml(error.description ?? '')}</p>`;
      res.writeHead(error.status, { 'Content-Type': 'text/html; charset=utf-8' }).end(text);
    }
    return;
  }
  if (path === PATHS.userInfo && req.method === 'GET') {
    await drain(req);
    try {
      sendJson(res, 200, core.userInfo(req.headers.authorization));
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      sendJson(res, error.status, { error: error.error });
    }
    return;
  }
  if ((path === PATHS.token || path === PATHS.revoke) && req.method === 'POST') {
    try {
      const form = parseForm(req, await readBody(req));
      if (path === PATHS.token) sendJson(res, 200, core.token(req.headers.authorization, form), { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
      else {
        core.revoke(req.headers.authorization, form.token);
        res.writeHead(200, { 'Content-Length': 0, intuit_tid: randomUUID() }).end();
      }
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      sendJson(res, error.status, error.description ? { error: error.error, error_description: error.description } : { error: error.error });
    }
    return;
  }
  if (path.startsWith(PATHS.v3)) {
    let bodyRead = false;
    let release: (() => void) | undefined;
    try {
      let segments: string[];
      try {
        segments = path.slice(PATHS.v3.length).split('/').filter(Boolean).map(decodeURIComponent);
      } catch {
        throw faults.badRequest('The request path is not valid');
      }
      // As QBO: the token first (from the headers alone), then the realm's concurrent requests, then the body.
      const company = core.authenticate(req.headers.authorization, segments[0] ?? '');
      release = core.enter(company.realmId);
      const body = await readBody(req).catch((error: unknown) => {
        if (error instanceof QboFault) throw error;
        throw faults.badRequest('The request body could not be read');
      });
      bodyRead = true;
      core.throttle(company.realmId);
      const result = accountingApi(core, company, req, segments, url.searchParams, body);
      sendJson(res, 200, { ...result, time: qboTime(core.now()) });
    } catch (error) {
      if (!(error instanceof QboFault)) throw error;
      sendJson(res, error.status, error.body(qboTime(core.now())), error.headers);
      if (!bodyRead) await drain(req);
    } finally {
      release?.();
    }
    return;
  }
  await drain(req);
  sendJson(res, 404, faults.notFoundPath(path).body(qboTime(core.now())));
}

function accountingApi(core: QuickBooksSandboxCore, company: Company, req: IncomingMessage, segments: string[], query: URLSearchParams, rawBody: string): Json {
  const realmId = company.realmId;
  const resource = (segments[1] ?? '').toLowerCase();
  const method = req.method ?? 'GET';

  if (resource === 'query' && segments.length === 2) {
    const text = method === 'POST' ? rawBody : query.get('query');
    if (!text) throw faults.required('query');
    return core.query(company, text);
  }
  if (resource === 'batch' && segments.length === 2 && method === 'POST') return batch(core, company, parseEntityBody(rawBody, 'BatchItemRequest'));
  if (resource === 'cdc' && segments.length === 2 && method === 'GET') return core.cdc(company, query.get('entities'), query.get('changedSince'));
  if (resource === 'companyinfo' && method === 'GET') {
    if (segments[2] !== undefined && segments[2] !== realmId) throw faults.notFound(`CompanyInfo ${segments[2]}`);
    return { CompanyInfo: companyInfo(core, company.realmId, company.companyName) };
  }
  const type = entityTypeOf(resource);
  if (!type) throw faults.notFoundPath(`/v3/company/${realmId}/${resource}`);
  if (method === 'GET' && segments.length === 3) return { [type]: company.read(type, segments[2]!) };
  if (method === 'POST' && segments.length === 2) {
    const body = parseEntityBody(rawBody, type);
    const operation = query.get('operation');
    if (operation === null) return { [type]: company.create(type, body) };
    if (operation === 'update') return { [type]: company.update(type, body, { void: query.get('include') === 'void' }) };
    if (operation === 'delete') return { [type]: company.delete(type, body) };
    if (operation === 'void') return { [type]: company.void(type, body) };
    throw faults.invalidProperty('operation', `operation ${operation} is not supported`);
  }
  if (!WRITABLE_TYPES.includes(type) && method === 'POST') throw faults.unsupportedOperation('Create');
  throw faults.notFoundPath(`/v3/company/${realmId}/${segments.slice(1).join('/')}`);
}

/** The most items one batch request takes (QBO: 30). */
export const MAX_BATCH_ITEMS = 30;

/** Batch: create, update, delete and query items run in order; each answers its entity, its QueryResponse or its Fault. */
function batch(core: QuickBooksSandboxCore, company: Company, body: Json): Json {
  const items = body.BatchItemRequest;
  if (!Array.isArray(items)) throw faults.required('BatchItemRequest');
  if (items.length > MAX_BATCH_ITEMS) throw faults.invalidProperty('BatchItemRequest', `A batch holds at most ${MAX_BATCH_ITEMS} items`);
  const seen = new Set<string>();
  const responses = items.map((item: unknown, index): Json => {
    if (!isObject(item)) throw faults.invalidProperty(`BatchItemRequest[${index}]`);
    const bId = item.bId;
    if (typeof bId !== 'string' || bId === '') throw faults.required(`BatchItemRequest[${index}].bId`);
    if (seen.has(bId)) throw faults.invalidProperty(`BatchItemRequest[${index}].bId`, `bId ${bId} is used twice in the batch`);
    seen.add(bId);
    try {
      if (typeof item.Query === 'string') {
        const { QueryResponse } = core.query(company, item.Query);
        return { bId, QueryResponse };
      }
      const names = Object.keys(item).filter((key) => key !== 'bId' && key !== 'operation' && key !== 'optionsData');
      const type = names.length === 1 ? entityTypeOf(names[0]!) : undefined;
      const entity = type ? item[names[0]!] : undefined;
      if (!type || !isObject(entity))
        throw faults.invalidProperty(`BatchItemRequest[${index}]`, 'A batch item holds one entity (or Query) besides bId and operation');
      const operation = item.operation ?? 'create';
      if (operation === 'create') return { bId, [type]: company.create(type, entity) };
      if (operation === 'update') return { bId, [type]: company.update(type, entity) };
      if (operation === 'delete') return { bId, [type]: company.delete(type, entity) };
      throw faults.invalidProperty(`BatchItemRequest[${index}].operation`, 'operation is create, update or delete');
    } catch (error) {
      if (!(error instanceof QboFault)) throw error;
      return { bId, Fault: { Error: error.errors, type: error.type } };
    }
  });
  return { BatchItemResponse: responses };
}

function companyInfo(core: QuickBooksSandboxCore, realmId: string, name: string): Json {
  return {
    CompanyName: name,
    LegalName: name,
    CompanyAddr: { Line1: '123 Sierra Way', City: 'San Pablo', CountrySubDivisionCode: 'CA', PostalCode: '87999' },
    Country: 'US',
    FiscalYearStartMonth: 'January',
    SupportedLanguages: 'en',
    domain: 'QBO',
    sparse: false,
    Id: '1',
    SyncToken: '0',
    MetaData: { CreateTime: qboTime(core.now()), LastUpdatedTime: qboTime(core.now()) },
    realmId,
  };
}

function parseEntityBody(text: string, type: string): Json {
  if (text.trim() === '') throw faults.required(type);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw faults.badRequest('Request body is not valid JSON');
  }
  if (!isObject(value)) throw faults.badRequest('Request body must be a JSON object');
  // QBO also accepts the entity wrapped in its name ({ "Vendor": { ... } }).
  const wrapped = value[type];
  return isObject(wrapped) && Object.keys(value).length === 1 ? wrapped : value;
}

function parseForm(req: IncomingMessage, text: string): Record<string, string> {
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/json')) {
    try {
      const value: unknown = JSON.parse(text || '{}');
      if (!isObject(value)) throw new Error('not an object');
      return Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    } catch {
      throw new OAuthError(400, 'invalid_request', 'body is not valid JSON');
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** Reads the body; one over MAX_BODY_BYTES is drained (so the client gets the 400) up to 10× that, then cut. */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES * 10) req.destroy();
      else if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => (size > MAX_BODY_BYTES ? reject(faults.badRequest('Request body is too large')) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

async function drain(req: IncomingMessage): Promise<void> {
  await readBody(req).catch(() => undefined);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': Buffer.byteLength(text), intuit_tid: randomUUID(), ...headers });
  res.end(text);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// ── /ledgerline controls ─────────────────────────────────────────────────────────────────────────────

async function handleControl(core: QuickBooksSandboxCore, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  try {
    const raw = await readBody(req).catch(() => {
      throw new ControlError(400, 'body is too large');
    });
    let body: Json = {};
    if (raw.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (!isObject(parsed)) throw new Error('not an object');
        body = parsed;
      } catch {
        throw new ControlError(400, 'body must be a JSON object');
      }
    }
    sendJson(res, 200, routeControl(core, req.method ?? 'GET', path, body));
  } catch (error) {
    if (error instanceof ControlError) sendJson(res, error.status, { error: error.message });
    else if (error instanceof QboFault) sendJson(res, error.status, error.body(qboTime(core.now())));
    else {
      console.error(`quickbooks sandbox: control ${path} failed`, error);
      sendJson(res, 500, { error: 'control failed' });
    }
  }
}

function routeControl(core: QuickBooksSandboxCore, method: string, path: string, body: Json): unknown {
  const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
  const is = (m: string, ...pattern: string[]): boolean =>
    method === m && segments.length === pattern.length && pattern.every((p, i) => p === '*' || p === segments[i]);
  const id = segments[1] ?? '';
  if (is('GET', 'health')) return { ok: true };
  if (is('GET', 'companies')) return { companies: [...core.companies.keys()].map((realmId) => core.summary(realmId)), defaultRealmId: core.defaultRealmId };
  if (is('POST', 'companies')) return core.createCompany(body as CreateCompanyInput);
  if (is('GET', 'companies', '*')) return core.summary(id);
  if (is('GET', 'companies', '*', '*')) {
    const type = entityTypeOf(segments[2] ?? '');
    if (!type) throw new ControlError(404, `no entity type ${segments[2] ?? ''}`);
    return { [type]: core.entities(id, type) };
  }
  if (is('POST', 'consent')) {
    if (body.deny === true) core.queueConsent({ deny: true });
    else if (typeof body.realmId === 'string') core.queueConsent({ realmId: body.realmId });
    else throw new ControlError(400, 'realmId or deny: true is required');
    return { ok: true };
  }
  if (is('POST', 'tokens', 'expire')) return { expired: core.expireAccessTokens(typeof body.realmId === 'string' ? body.realmId : undefined) };
  if (is('POST', 'throttle')) {
    if (typeof body.requestsPerMinute !== 'number') throw new ControlError(400, 'requestsPerMinute is required');
    core.setRequestsPerMinute(body.requestsPerMinute);
    return { ok: true };
  }
  if (is('POST', 'fail-next')) {
    if (typeof body.status !== 'number') throw new ControlError(400, 'status is required');
    core.failNext({
      status: body.status as 429 | 500 | 503,
      times: typeof body.times === 'number' ? body.times : undefined,
      realmId: typeof body.realmId === 'string' ? body.realmId : undefined,
    });
    return { ok: true };
  }
  if (is('POST', 'fail-next', 'clear')) {
    core.clearFailures();
    return { ok: true };
  }
  throw new ControlError(404, `no control ${method} /ledgerline${path}`);
}
