/// <reference types="node" />
// Serves built frontends with node:http alone: the shell (SPA fallback + runtime /config.json) and a remote's
// files (CORS open, since the shell loads them from another origin).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RunningServer {
  /** Base URL without a trailing slash, e.g. http://localhost:3000. */
  url: string;
  close(): Promise<void>;
}

export interface WebServerOptions {
  /** 0 picks a free port; the chosen one is in `url`. */
  port: number;
  /** The gateway's base URL, handed to the browser in /config.json. */
  apiUrl: string;
  /** The settings remote: its mf-manifest.json URL, or the base URL it is served from. */
  settingsRemoteUrl: string;
  /** The accounting remote (transactions, chart of accounts, ledger), likewise. */
  accountingRemoteUrl: string;
  /** The reports remote (financial statements, dashboard charts), likewise. */
  reportsRemoteUrl: string;
  /**
   * How the browser links banks, handed over in /config.json: `sandbox` with the Plaid sandbox's URL
   * (reachable from the browser; its /ledgerline controls allow any origin) in development and tests,
   * `production` for Plaid Link from cdn.plaid.com. Omitted: the connect page says linking is not configured.
   */
  plaid?: { mode: 'sandbox'; sandboxUrl: string } | { mode: 'production'; env?: string };
  /** Interface to listen on; all interfaces when omitted. */
  host?: string;
  /** Defaults to frontends/shell/dist. */
  dir?: string;
}

export interface RemoteServerOptions {
  port: number;
  /** A remote's build output, e.g. frontends/settings/dist. */
  dir: string;
  host?: string;
}

export const SHELL_DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The manifest URL the shell registers, from either a manifest URL or the remote's base URL. */
export function manifestUrlOf(remoteUrl: string): string {
  if (/\.json($|\?)/.test(remoteUrl)) return remoteUrl;
  return `${remoteUrl.replace(/\/+$/, '')}/mf-manifest.json`;
}

interface StaticFile {
  body: Buffer;
  contentType: string;
  /** Hashed build assets never change under the same name. */
  immutable: boolean;
}

async function readStatic(root: string, pathname: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const file = resolve(root, `.${decoded}`);
  // Refuse anything that resolves outside the served folder (../ or encoded variants).
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return null;
  try {
    const info = await stat(file);
    if (!info.isFile()) return null;
    return {
      body: await readFile(file),
      contentType: CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      immutable: decoded.startsWith('/static/'),
    };
  } catch {
    return null;
  }
}

function send(res: ServerResponse, method: string | undefined, status: number, body: Buffer | string, headers: Record<string, string>): void {
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { ...headers, 'content-length': String(payload.length) });
  res.end(method === 'HEAD' ? undefined : payload);
}

function sendFile(res: ServerResponse, method: string | undefined, file: StaticFile, extra: Record<string, string> = {}): void {
  send(res, method, 200, file.body, {
    'content-type': file.contentType,
    'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...extra,
  });
}

async function listen(server: Server, port: number, host: string | undefined): Promise<RunningServer> {
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      done();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === undefined || host === '0.0.0.0' || host === '::' || host === '127.0.0.1' || host === '::1' ? 'localhost' : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()));
        // Browsers keep connections alive; without this close() waits for them to time out.
        server.closeAllConnections();
      }),
  };
}

const pathnameOf = (req: IncomingMessage): string => new URL(req.url ?? '/', 'http://localhost').pathname;

/** The shell: static files from dist, /config.json from the options, index.html for every other page path. */
export async function startWebServer(options: WebServerOptions): Promise<RunningServer> {
  const root = resolve(options.dir ?? SHELL_DIST_DIR);
  const config = JSON.stringify({
    apiUrl: options.apiUrl,
    remotes: { settings: manifestUrlOf(options.settingsRemoteUrl), accounting: manifestUrlOf(options.accountingRemoteUrl), reports: manifestUrlOf(options.reportsRemoteUrl) },
    ...(options.plaid ? { plaid: options.plaid } : {}),
  });

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        send(res, req.method, 405, 'Method Not Allowed', { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
        return;
      }
      const pathname = pathnameOf(req);
      if (pathname === '/config.json') {
        send(res, req.method, 200, config, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        return;
      }
      const file = pathname === '/' ? null : await readStatic(root, pathname);
      if (file) {
        sendFile(res, req.method, file);
        return;
      }
      // A missing asset is a 404; any other path is a client-side route and gets the app.
      if (extname(pathname) !== '' || pathname.startsWith('/static/')) {
        send(res, req.method, 404, 'Not Found', { 'content-type': 'text/plain; charset=utf-8' });
        return;
      }
      const index = await readStatic(root, '/index.html');
      if (index === null) {
        send(res, req.method, 500, `No build in ${root}: run npm run build -w @ledgerline/shell`, { 'content-type': 'text/plain; charset=utf-8' });
        return;
      }
      sendFile(res, req.method, index);
    })().catch(() => {
      if (!res.headersSent) send(res, req.method, 500, 'Internal Server Error', { 'content-type': 'text/plain; charset=utf-8' });
      else res.destroy();
    });
  });
  return listen(server, options.port, options.host);
}

const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': '*',
};

/** A remote's build folder, readable from any origin. */
export async function startRemoteServer(options: RemoteServerOptions): Promise<RunningServer> {
  const root = resolve(options.dir);
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'OPTIONS') {
        send(res, req.method, 204, '', { ...CORS_HEADERS, 'access-control-max-age': '86400' });
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        send(res, req.method, 405, 'Method Not Allowed', { ...CORS_HEADERS, allow: 'GET, HEAD, OPTIONS' });
        return;
      }
      const pathname = pathnameOf(req);
      const file = await readStatic(root, pathname === '/' ? '/index.html' : pathname);
      if (file === null) {
        send(res, req.method, 404, 'Not Found', { ...CORS_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
        return;
      }
      sendFile(res, req.method, file, CORS_HEADERS);
    })().catch(() => {
      if (!res.headersSent) send(res, req.method, 500, 'Internal Server Error', CORS_HEADERS);
      else res.destroy();
    });
  });
  return listen(server, options.port, options.host);
}
