/// <reference types="node" />
// What a signed-out first visit costs: the built shell and remotes served by server/serve.ts, Debian's Chromium
// with an empty cache, the JavaScript bytes each public page (the auth routes) fetches until it is drawn and the
// network is idle. Used by the budget test (first-load.test.ts) and `npm run bench -- bundle`. The gateway is a
// stand-in that answers 401 to everything: a signed-out page asks it nothing it needs, and what the shell loads
// does not depend on it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { startRemoteServer, startWebServer, type RunningServer } from '../server/serve.js';

/** Issue #13: the shell's first load, compressed JavaScript. */
export const FIRST_LOAD_BUDGET_BYTES = 200_000;

export interface ScriptLoad {
  url: string;
  /** `br`, `gzip` or `identity`. */
  encoding: string;
  /** Body bytes on the wire (compressed when served compressed), headers excluded. */
  bodyBytes: number;
  /** The decoded script. */
  decodedBytes: number;
}

export interface PageLoad {
  route: string;
  encoding: 'br' | 'gzip';
  scripts: ScriptLoad[];
  /** Sum of bodyBytes over every script. */
  jsBytes: number;
  jsDecoded: number;
}

export interface FirstLoadServers {
  webUrl: string;
  close(): Promise<void>;
}

const REMOTE_DIRS = ['settings', 'accounting', 'reports'] as const;
const distOf = (name: string) => fileURLToPath(new URL(`../../${name}/dist/`, import.meta.url));

/** The built shell and remotes (npm run build -w each), and a gateway stand-in that refuses every call. */
export async function serveBuiltApp(): Promise<FirstLoadServers> {
  const api: Server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
    res.setHeader('access-control-allow-headers', '*');
    res.setHeader('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 401, message: 'Unauthorized' }));
  });
  await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  const remotes: RunningServer[] = [];
  for (const name of REMOTE_DIRS) remotes.push(await startRemoteServer({ port: 0, host: '127.0.0.1', dir: distOf(name) }));
  const web = await startWebServer({
    port: 0,
    host: '127.0.0.1',
    apiUrl,
    remoteUrls: Object.fromEntries(REMOTE_DIRS.map((name, i) => [name, remotes[i]!.url])),
  });
  return {
    webUrl: web.url,
    async close() {
      await web.close();
      for (const remote of remotes) await remote.close();
      await new Promise<void>((done) => api.close(() => done()));
    },
  };
}

/**
 * Loads `route` in a fresh context (empty HTTP cache) accepting only `encoding`, waits until `drawn` holds in the
 * page (a CSS selector) and the network is idle, and returns every script response.
 */
export async function measurePage(browser: Browser, webUrl: string, route: string, drawn: string, encoding: 'br' | 'gzip' = 'br'): Promise<PageLoad> {
  const context = await browser.newContext({ baseURL: webUrl, viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const pending = new Map<string, ScriptLoad & { type: string; headerBytes: number }>();
    const done: Array<ScriptLoad & { type: string }> = [];
    await cdp.send('Network.enable');
    await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': encoding } });
    cdp.on('Network.responseReceived', (event) => {
      const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      pending.set(event.requestId, {
        url: event.response.url,
        type: event.type,
        encoding: headers['content-encoding'] ?? 'identity',
        bodyBytes: 0,
        decodedBytes: 0,
        headerBytes: event.response.encodedDataLength ?? 0,
      });
    });
    cdp.on('Network.dataReceived', (event) => {
      const r = pending.get(event.requestId);
      if (r) r.decodedBytes += event.dataLength;
    });
    cdp.on('Network.loadingFinished', (event) => {
      const r = pending.get(event.requestId);
      if (!r) return;
      pending.delete(event.requestId);
      const { headerBytes, ...rest } = r;
      done.push({ ...rest, bodyBytes: Math.max(0, event.encodedDataLength - headerBytes) });
    });
    await page.goto(route, { waitUntil: 'load' });
    await page.locator(drawn).first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const scripts = done
      .filter((r) => r.type === 'Script' || /\.m?js$/.test(new URL(r.url).pathname))
      .map(({ url, encoding: served, bodyBytes, decodedBytes }) => ({ url, encoding: served, bodyBytes, decodedBytes }));
    return {
      route,
      encoding,
      scripts,
      jsBytes: scripts.reduce((a, s) => a + s.bodyBytes, 0),
      jsDecoded: scripts.reduce((a, s) => a + s.decodedBytes, 0),
    };
  } finally {
    await context.close();
  }
}

/** The public pages and what shows each one is drawn. */
export const PUBLIC_PAGES: ReadonlyArray<{ route: string; drawn: string }> = [
  { route: '/login', drawn: 'input[type="password"]' },
  { route: '/signup', drawn: 'input[type="password"]' },
  { route: '/forgot-password', drawn: 'input[type="email"], input[name="email"]' },
];
