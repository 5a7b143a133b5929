// ApiClient.eventStream (decision 0040): the notification stream read with fetch, so the bearer token and workspace
// travel as headers (EventSource cannot send them); events parsed across chunk boundaries, comments skipped; a refused
// stream rejects like any call (a 401 logs out). And the bell's reconnect back-off.
import { describe, expect, it, vi } from 'vitest';
import { createApiClient, reconnectDelayMs, type StreamEvent } from '../src/index';

/** A response whose body arrives in the given chunks. */
const streamed = (chunks: string[]) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );

describe('eventStream', () => {
  it('sends the session headers and asks for events; parses events split across chunks and skips comments', async () => {
    let sent: Headers | undefined;
    const fetchFn: typeof fetch = (_input, init) => {
      sent = new Headers(init?.headers);
      return Promise.resolve(
        streamed(['retry: 3000\nevent: ready\nda', 'ta: {"workspaceId":"ws-1"}\n\n: keep-alive\n\n', 'id: n1\nevent: notification\ndata: {"id":"n1"}\n\n']),
      );
    };
    const client = createApiClient({
      baseUrl: 'http://api.test',
      getToken: () => 'tok',
      getWorkspaceId: () => 'ws-1',
      onUnauthorized: () => undefined,
      fetch: fetchFn,
    });
    const events: StreamEvent[] = [];
    await client.eventStream('/internal-notifications/stream', (e) => events.push(e), new AbortController().signal);
    expect(sent?.get('authorization')).toBe('Bearer tok');
    expect(sent?.get('x-workspace-id')).toBe('ws-1');
    expect(sent?.get('accept')).toBe('text/event-stream');
    expect(events).toEqual([
      { event: 'ready', id: undefined, data: '{"workspaceId":"ws-1"}' },
      { event: 'notification', id: 'n1', data: '{"id":"n1"}' },
    ]);
  });

  it('rejects a refused stream as the typed calls do; a 401 tells the session once', async () => {
    const onUnauthorized = vi.fn();
    const fetchFn: typeof fetch = () =>
      Promise.resolve(
        new Response(JSON.stringify({ message: 'Session expired', statusCode: 401 }), { status: 401, headers: { 'content-type': 'application/json' } }),
      );
    const client = createApiClient({ baseUrl: 'http://api.test', getToken: () => 'tok', getWorkspaceId: () => 'ws-1', fetch: fetchFn, onUnauthorized });
    await expect(client.eventStream('/internal-notifications/stream', () => undefined, new AbortController().signal)).rejects.toMatchObject({
      statusCode: 401,
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('backs off 1 s doubling to 30 s between reconnects', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(reconnectDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });
});
