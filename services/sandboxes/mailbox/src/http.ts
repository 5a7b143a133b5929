import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderList, renderMessage, renderNotFound } from './page.js';
import type { MessageStore } from './store.js';

// The pages run no script and load nothing from elsewhere; inline styles only.
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function sendPage(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, PAGE_HEADERS);
  res.end(html);
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.writeHead(405, { allow, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ message: 'Method not allowed' }));
}

/** A path segment, or undefined when it is not valid percent-encoding. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Routes of the mailbox:
 *   GET    /                    the mailbox page (`?to=` filters by recipient)
 *   GET    /messages/:id        one message, text part shown, HTML part shown as escaped source
 *   POST   /clear               deletes every message, then back to the page (the page's button)
 *   GET    /api/messages        JSON, newest first (`?to=` filters by recipient, case-insensitive)
 *   GET    /api/messages/:id    JSON, one message
 *   DELETE /api/messages        deletes every message (204)
 */
export function createRequestHandler(store: MessageStore): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://mailbox.invalid');
    const method = req.method ?? 'GET';
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const to = url.searchParams.get('to')?.trim() || undefined;

    if (path === '/') {
      if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(res, 'GET, HEAD');
      return sendPage(res, 200, renderList(store.list(to), to));
    }
    if (path === '/clear') {
      if (method !== 'POST') return methodNotAllowed(res, 'POST');
      store.clear();
      res.writeHead(303, { location: '/' });
      return void res.end();
    }
    if (path.startsWith('/messages/')) {
      if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(res, 'GET, HEAD');
      const id = decodeSegment(path.slice('/messages/'.length));
      const message = id === undefined ? undefined : store.get(id);
      return message ? sendPage(res, 200, renderMessage(message)) : sendPage(res, 404, renderNotFound());
    }
    if (path === '/api/messages') {
      if (method === 'GET' || method === 'HEAD') return sendJson(res, 200, store.list(to));
      if (method === 'DELETE') {
        store.clear();
        res.writeHead(204);
        return void res.end();
      }
      return methodNotAllowed(res, 'GET, HEAD, DELETE');
    }
    if (path.startsWith('/api/messages/')) {
      if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(res, 'GET, HEAD');
      const id = decodeSegment(path.slice('/api/messages/'.length));
      const message = id === undefined ? undefined : store.get(id);
      return message ? sendJson(res, 200, message) : sendJson(res, 404, { message: 'Message not found' });
    }
    return sendJson(res, 404, { message: 'Not found' });
  };
}
