import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, type ApiClientOptions } from '../src/index';

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

function fakeServer(answer: (call: Call) => Response) {
  const calls: Call[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    return Promise.resolve(answer(call));
  };
  return { calls, fetchFn };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function client(fetchFn: typeof fetch, overrides: Partial<ApiClientOptions> = {}) {
  return createApiClient({
    baseUrl: 'http://api.test/',
    getToken: () => 'tok',
    getWorkspaceId: () => 'ws-1',
    onUnauthorized: () => undefined,
    fetch: fetchFn,
    ...overrides,
  });
}

describe('createApiClient', () => {
  it('sends the bearer token, the workspace header and a JSON body', async () => {
    const server = fakeServer(() => json(200, { message: 'ok' }));
    await client(server.fetchFn).forgotPassword({ email: 'a@b.co' });
    const call = server.calls[0];
    expect(call?.url).toBe('http://api.test/forgot-password');
    expect(call?.method).toBe('POST');
    expect(call?.headers.get('authorization')).toBe('Bearer tok');
    expect(call?.headers.get('x-workspace-id')).toBe('ws-1');
    expect(call?.body).toEqual({ email: 'a@b.co' });
  });

  it('sends neither header without a token', async () => {
    const server = fakeServer(() => json(200, { message: 'ok' }));
    await client(server.fetchFn, { getToken: () => null }).forgotPassword({ email: 'a@b.co' });
    expect(server.calls[0]?.headers.has('authorization')).toBe(false);
    expect(server.calls[0]?.headers.has('x-workspace-id')).toBe(false);
  });

  it('omits the workspace header when no workspace is selected', async () => {
    const server = fakeServer(() => json(200, { message: 'ok' }));
    await client(server.fetchFn, { getWorkspaceId: () => null }).logout();
    expect(server.calls[0]?.headers.get('authorization')).toBe('Bearer tok');
    expect(server.calls[0]?.headers.has('x-workspace-id')).toBe(false);
  });

  it('uses the first field error, then the message, and keeps status and appErrorCode', async () => {
    const withErrors = fakeServer(() =>
      json(400, { message: 'Bad request', errors: [{ field: 'email', message: 'Please enter a valid email' }], appErrorCode: 'VALIDATION', statusCode: 400 }),
    );
    const first = await client(withErrors.fetchFn)
      .login({ email: 'x', password: 'y' })
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ApiError);
    expect(first).toMatchObject({ message: 'Please enter a valid email', statusCode: 400, appErrorCode: 'VALIDATION', field: 'email' });

    const messageOnly = fakeServer(() => json(409, { message: 'Email already registered', appErrorCode: 'EMAIL_TAKEN', statusCode: 409 }));
    await expect(
      client(messageOnly.fetchFn).signup({
        firstName: 'a',
        middleName: 'b',
        lastName: 'c',
        companyName: 'd',
        maxTeamSize: 2,
        email: 'e@f.gh',
        password: '12345678',
      }),
    ).rejects.toMatchObject({ message: 'Email already registered', statusCode: 409, appErrorCode: 'EMAIL_TAKEN' });
  });

  it('answers anything else with Something went wrong and code 500', async () => {
    const html = fakeServer(() => new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(client(html.fetchFn).getMe()).rejects.toMatchObject({ message: 'Something went wrong', statusCode: 500 });
    const network: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(client(network).getMe()).rejects.toMatchObject({ message: 'Something went wrong', statusCode: 500 });
  });

  it('calls onUnauthorized on a 401 and refuses calls while the session is expired', async () => {
    let expired = false;
    const onUnauthorized = vi.fn(() => {
      expired = true;
    });
    const server = fakeServer(() => json(401, { message: 'Unauthorized', appErrorCode: 'UNAUTHENTICATED', statusCode: 401 }));
    const api = client(server.fetchFn, { onUnauthorized, isSessionExpired: () => expired });
    await expect(api.getMe()).rejects.toMatchObject({ statusCode: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await expect(api.getMe()).rejects.toMatchObject({ message: 'Session expired', statusCode: 401, handled: true });
    expect(server.calls).toHaveLength(1);
    expired = false;
    await expect(api.getMe()).rejects.toMatchObject({ statusCode: 401 });
    expect(server.calls).toHaveLength(2);
  });

  it('marks a 401 as handled when onUnauthorized says it logged out', async () => {
    const server = fakeServer(() => json(401, { message: 'Invalid credentials', appErrorCode: 'UNAUTHENTICATED', statusCode: 401 }));
    const quiet = await client(server.fetchFn, { onUnauthorized: () => true })
      .getMe()
      .catch((e: unknown) => e);
    expect(quiet).toMatchObject({ message: 'Invalid credentials', handled: true });
    const loud = await client(server.fetchFn, { onUnauthorized: () => false })
      .login({ email: 'a@b.co', password: 'x' })
      .catch((e: unknown) => e);
    expect(loud).toMatchObject({ message: 'Invalid credentials', statusCode: 401, handled: false });
  });

  it('calls onWorkspaceLost with the workspace a call acted in when the gateway refuses that workspace, not on other 404s', async () => {
    const onWorkspaceLost = vi.fn();
    const lost = fakeServer(() =>
      json(404, {
        message: 'Workspace not found',
        errors: [{ field: 'x-workspace-id', message: 'Workspace not found' }],
        appErrorCode: 'NOT_FOUND',
        statusCode: 404,
      }),
    );
    await expect(client(lost.fetchFn, { onWorkspaceLost }).patch('/transactions', { body: { transactions: [] } })).rejects.toMatchObject({
      message: 'Workspace not found',
      statusCode: 404,
    });
    expect(onWorkspaceLost).toHaveBeenCalledWith('ws-1', expect.any(ApiError));
    // Told the user itself: the error is marked handled, so the screen that made the call stays quiet.
    const told = await client(lost.fetchFn, { onWorkspaceLost: () => true })
      .getMe()
      .catch((e: unknown) => e);
    expect(told).toMatchObject({ message: 'Workspace not found', statusCode: 404, handled: true });
    const record = fakeServer(() =>
      json(404, {
        message: 'Transaction not found',
        errors: [{ field: 'transactions.0.id', message: 'Transaction not found' }],
        appErrorCode: 'NOT_FOUND',
        statusCode: 404,
      }),
    );
    await expect(client(record.fetchFn, { onWorkspaceLost }).patch('/transactions', { body: { transactions: [] } })).rejects.toMatchObject({ statusCode: 404 });
    const plain = fakeServer(() => json(404, { message: 'Workspace not found', appErrorCode: 'NOT_FOUND', statusCode: 404 }));
    await expect(client(plain.fetchFn, { onWorkspaceLost }).delete('/workspace/{id}', { params: { path: { id: 'ws-2' } } })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(onWorkspaceLost).toHaveBeenCalledTimes(1);
  });

  it('downloads with the file name from content-disposition', async () => {
    const server = fakeServer(() => new Response('a,b', { status: 200, headers: { 'content-disposition': 'attachment; filename="ledger.csv"' } }));
    const result = await client(server.fetchFn).download('/general-ledger/csv', { params: { query: { startDate: '2024-01-01', endDate: '' } } });
    expect(server.calls[0]?.url).toBe('http://api.test/general-ledger/csv?startDate=2024-01-01');
    expect(result.fileName).toBe('ledger.csv');
    expect(await result.blob.text()).toBe('a,b');
  });
});

describe('the typed call (paths from openapi.json)', () => {
  it('fills path parameters (encoded), sends the query without empty values and lists comma-joined, and answers the body', async () => {
    const server = fakeServer(() => json(200, { id: 'v 1', name: 'Acme' }));
    const api = client(server.fetchFn);
    const vendor = await api.get('/vendors/{id}', { params: { path: { id: 'v 1/2' } } });
    expect(server.calls[0]?.url).toBe('http://api.test/vendors/v%201%2F2');
    expect(server.calls[0]?.method).toBe('GET');
    expect(vendor.name).toBe('Acme');
    await api.get('/jobs', { params: { query: { accountId: '', status: ['active', 'waiting'] } } });
    expect(server.calls[1]?.url).toBe('http://api.test/jobs?status=active%2Cwaiting');
  });

  it('sends the method and JSON body of each verb', async () => {
    const server = fakeServer(() => json(200, { message: 'ok' }));
    const api = client(server.fetchFn);
    await api.post('/vendors/merge', { body: { parentVendorId: 'a', mergingVendorsId: ['b'] } });
    await api.put('/categories/{id}/opening-balance', { params: { path: { id: 'c1' } }, body: { openingBalance: 10, openingBalanceDate: '2026-01-01' } });
    await api.patch('/vendors/{id}', { params: { path: { id: 'v1' } }, body: { name: 'Acme' } });
    await api.delete('/vendors/{id}', { params: { path: { id: 'v1' } } });
    expect(server.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST http://api.test/vendors/merge',
      'PUT http://api.test/categories/c1/opening-balance',
      'PATCH http://api.test/vendors/v1',
      'DELETE http://api.test/vendors/v1',
    ]);
    expect(server.calls[0]?.body).toEqual({ parentVendorId: 'a', mergingVendorsId: ['b'] });
    expect(server.calls[3]?.body).toBeUndefined();
  });

  it('refuses a path parameter left out rather than calling a wrong URL', () => {
    const server = fakeServer(() => json(200, {}));
    const get = client(server.fetchFn).get as (path: string, init?: object) => Promise<unknown>;
    expect(() => get('/vendors/{id}', {})).toThrow('Missing path parameter "id" for /vendors/{id}');
    expect(server.calls).toHaveLength(0);
  });

  it('is checked against paths at compile time (typecheck fails if any of these compiles)', () => {
    const api = client(fakeServer(() => json(200, {})).fetchFn);
    const never = (f: () => unknown) => expect(typeof f).toBe('function');
    // @ts-expect-error: not a path of the gateway
    never(() => api.get('/vendor/{id}', { params: { path: { id: 'v' } } }));
    // @ts-expect-error: the path parameter is required
    never(() => api.get('/vendors/{id}'));
    // @ts-expect-error: /vendors has no PUT
    never(() => api.put('/vendors', { body: {} }));
    // @ts-expect-error: not a field of the merge body
    never(() => api.post('/vendors/merge', { body: { vendorIds: ['a'] } }));
    // @ts-expect-error: not a query parameter of GET /vendors
    never(() => api.get('/vendors', { params: { query: { colour: 'red' } } }));
    // @ts-expect-error: the answer of GET /vendors/{id} has no such field
    never(async () => (await api.get('/vendors/{id}', { params: { path: { id: 'v' } } })).colour);
  });
});
