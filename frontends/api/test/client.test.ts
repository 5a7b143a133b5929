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
    await expect(client(lost.fetchFn, { onWorkspaceLost }).request('PATCH', '/transactions', { body: {} })).rejects.toMatchObject({
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
    await expect(client(record.fetchFn, { onWorkspaceLost }).request('PATCH', '/transactions', { body: {} })).rejects.toMatchObject({ statusCode: 404 });
    const plain = fakeServer(() => json(404, { message: 'Workspace not found', appErrorCode: 'NOT_FOUND', statusCode: 404 }));
    await expect(client(plain.fetchFn, { onWorkspaceLost }).request('DELETE', '/workspace/ws-2')).rejects.toMatchObject({ statusCode: 404 });
    expect(onWorkspaceLost).toHaveBeenCalledTimes(1);
  });

  it('downloads with the file name from content-disposition', async () => {
    const server = fakeServer(() => new Response('a,b', { status: 200, headers: { 'content-disposition': 'attachment; filename="ledger.csv"' } }));
    const result = await client(server.fetchFn).download('/general-ledger/csv', { startDate: '2024-01-01', endDate: '' });
    expect(server.calls[0]?.url).toBe('http://api.test/general-ledger/csv?startDate=2024-01-01');
    expect(result.fileName).toBe('ledger.csv');
    expect(await result.blob.text()).toBe('a,b');
  });
});
