/// <reference types="node" />
// Serves built frontends with node:http alone: the shell (SPA fallback + runtime /config.json) and a remote's
// files (CORS open, since the shell loads them from another origin).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
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
  /** Each remote by name (the registry's REMOTES): its mf-manifest.json URL, or the base URL it is served from. */
  remoteUrls: Readonly<Record<string, string>>;
  /**
   * How the browser links banks, handed over in /config.json: `sandbox` with the Plaid sandbox's URL
   * (reachable from the browser; its /ledgerline controls allow any origin) in development and tests,
   * `production` for Plaid Link from cdn.plaid.com. Omitted: the connect page says linking is not configured.
   */
  plaid?: { mode: 'sandbox'; sandboxUrl: string } | { mode: 'production'; env?: string };
  /**
   * "Continue with Google", handed over in /config.json: the OAuth client id and Google's authorization endpoint (the local
   * OpenID Connect sandbox's in development and tests). Omitted: the sign-in pages show no Google button.
   */
  google?: { clientId: string; authorizationUrl: string };
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
  /** The file on disk that answers: the asset itself or its `.br`/`.gz` sibling. */
  path: string;
  size: number;
  mtimeMs: number;
  contentType: string;
  /** `br` or `gzip` when a precompressed sibling answers; undefined for the file as built. */
  encoding?: 'br' | 'gzip';
  /** The asset has precompressed siblings, so its answer depends on Accept-Encoding (Vary). */
  negotiated: boolean;
  /** Content-hashed build assets never change under the same name. */
  immutable: boolean;
}

/** Encodings the client accepts, by its q-values: `identity;q=0` or `*;q=0` are honoured for br and gzip only. */
export function acceptedEncodings(header: string | undefined): { br: boolean; gzip: boolean } {
  const q = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  return { br: accepts('br'), gzip: accepts('gzip') || accepts('x-gzip') };
}

/** Hashed names (rsbuild: `name.<10 hex>.js` under /static/) change with their content; nothing else may be cached for long. */
export function isContentHashed(pathname: string): boolean {
  return pathname.startsWith('/static/') && /\.[0-9a-f]{8,}\./.test(pathname) && !/remoteEntry/.test(pathname);
}

async function fileStat(path: string): Promise<{ size: number; mtimeMs: number } | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}

async function readStatic(root: string, pathname: string, acceptEncoding?: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const file = resolve(root, `.${decoded}`);
  // Refuse anything that resolves outside the served folder (../ or encoded variants).
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return null;
  const info = await fileStat(file);
  if (info === null) return null;
  const base = {
    contentType: CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    immutable: isContentHashed(decoded),
  };
  // Written by the ui kit's precompress.ts at build time; br first (smaller), then gzip, else the file as built.
  const accepted = acceptedEncodings(acceptEncoding);
  const [br, gz] = await Promise.all([fileStat(`${file}.br`), fileStat(`${file}.gz`)]);
  const negotiated = br !== null || gz !== null;
  if (br && accepted.br) return { ...base, ...br, path: `${file}.br`, encoding: 'br', negotiated };
  if (gz && accepted.gzip) return { ...base, ...gz, path: `${file}.gz`, encoding: 'gzip', negotiated };
  return { ...base, ...info, path: file, negotiated };
}

function send(res: ServerResponse, method: string | undefined, status: number, body: Buffer | string, headers: Record<string, string>): void {
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { ...headers, 'content-length': String(payload.length) });
  res.end(method === 'HEAD' ? undefined : payload);
}

/** One `bytes=` range of a file of `size` bytes; null when absent or not a single range (the whole file is sent); 'unsatisfiable' for 416. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    // bytes=-N: the last N bytes.
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * A static file with its validators: an ETag per encoded variant (so a cached gzip body never answers a br
 * request), 304 for a matching If-None-Match, a single byte range (206/416), and HEAD without a body.
 */
async function sendFile(req: IncomingMessage, res: ServerResponse, file: StaticFile, extra: Record<string, string> = {}): Promise<void> {
  const etag = `"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}${file.encoding ? `-${file.encoding}` : ''}"`;
  const headers: Record<string, string> = {
    'content-type': file.contentType,
    'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    etag,
    'last-modified': new Date(file.mtimeMs).toUTCString(),
    'accept-ranges': 'bytes',
    ...(file.negotiated ? { vary: 'Accept-Encoding' } : {}),
    ...(file.encoding ? { 'content-encoding': file.encoding } : {}),
    ...extra,
  };
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const ifRange = req.headers['if-range'];
  const range = ifRange === undefined || ifRange === etag ? parseRange(req.headers.range, file.size) : null;
  if (range === 'unsatisfiable') {
    send(res, req.method, 416, '', { ...headers, 'content-range': `bytes */${file.size}` });
    return;
  }
  const body = await readFile(file.path);
  if (range === null) {
    send(res, req.method, 200, body, headers);
    return;
  }
  send(res, req.method, 206, body.subarray(range.start, range.end + 1), { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${file.size}` });
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

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** A URL's origin; a local one (localhost or 127.0.0.1) under both names, since either reaches it. */
function loopbackOrigins(url: string): string[] {
  const origin = originOf(url);
  if (origin === null) return [];
  const u = new URL(origin);
  if (u.hostname !== 'localhost' && u.hostname !== '127.0.0.1') return [origin];
  return [`${u.protocol}//localhost:${u.port}`, `${u.protocol}//127.0.0.1:${u.port}`];
}

/** The CSP hashes of index.html's inline scripts (the theme chosen before the first paint). */
async function inlineScriptHashes(root: string): Promise<string[]> {
  const html = await readFile(join(root, 'index.html'), 'utf8').catch(() => '');
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
  );
}

/**
 * The shell's security headers (issue #15): a CSP that lets the app load its remotes, call the gateway
 * and open Plaid Link, and nothing else; no framing, no sniffing, no referrer to other origins.
 */
export function shellSecurityHeaders(options: WebServerOptions, inlineScriptHashes: readonly string[] = []): Record<string, string> {
  const remotes = Object.values(options.remoteUrls).flatMap(loopbackOrigins);
  const api = loopbackOrigins(options.apiUrl);
  // Plaid Link's own hosts whenever linking is configured: /config.json may point one build at either mode.
  const plaidHosts = ['https://cdn.plaid.com', 'https://*.plaid.com'];
  const plaid = options.plaid?.mode === 'sandbox' ? [...loopbackOrigins(options.plaid.sandboxUrl), ...plaidHosts] : options.plaid ? plaidHosts : [];
  const list = (...xs: (string | null)[]) => [...new Set(xs.filter((x): x is string => x !== null))].join(' ');
  const csp = [
    "default-src 'self'",
    `script-src ${list("'self'", ...inlineScriptHashes, ...remotes, ...plaid)}`,
    `style-src ${list("'self'", "'unsafe-inline'", ...remotes)}`,
    `connect-src ${list("'self'", ...api, ...remotes, ...plaid)}`,
    `img-src ${list("'self'", 'data:', 'blob:', ...remotes, ...plaid)}`,
    `font-src ${list("'self'", 'data:', ...remotes)}`,
    `frame-src ${list("'self'", ...plaid)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
  };
}

const pathnameOf = (req: IncomingMessage): string => new URL(req.url ?? '/', 'http://localhost').pathname;

/** The shell: static files from dist, /config.json from the options, index.html for every other page path. */
export async function startWebServer(options: WebServerOptions): Promise<RunningServer> {
  const root = resolve(options.dir ?? SHELL_DIST_DIR);
  const config = JSON.stringify({
    apiUrl: options.apiUrl,
    remotes: Object.fromEntries(Object.entries(options.remoteUrls).map(([name, url]) => [name, manifestUrlOf(url)])),
    ...(options.plaid ? { plaid: options.plaid } : {}),
    ...(options.google ? { google: options.google } : {}),
  });

  const security = shellSecurityHeaders(options, await inlineScriptHashes(root));
  const server = createServer((req, res) => {
    for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
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
      const acceptEncoding = req.headers['accept-encoding'];
      const file = pathname === '/' ? null : await readStatic(root, pathname, acceptEncoding);
      if (file) {
        await sendFile(req, res, file);
        return;
      }
      // A missing asset is a 404; any other path is a client-side route and gets the app.
      if (extname(pathname) !== '' || pathname.startsWith('/static/')) {
        send(res, req.method, 404, 'Not Found', { 'content-type': 'text/plain; charset=utf-8' });
        return;
      }
      const index = await readStatic(root, '/index.html', acceptEncoding);
      if (index === null) {
        send(res, req.method, 500, `No build in ${root}: run npm run build -w @ledgerline/shell`, { 'content-type': 'text/plain; charset=utf-8' });
        return;
      }
      await sendFile(req, res, index);
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
      const file = await readStatic(root, pathname === '/' ? '/index.html' : pathname, req.headers['accept-encoding']);
      if (file === null) {
        send(res, req.method, 404, 'Not Found', { ...CORS_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
        return;
      }
      await sendFile(req, res, file, CORS_HEADERS);
    })().catch(() => {
      if (!res.headersSent) send(res, req.method, 500, 'Internal Server Error', CORS_HEADERS);
      else res.destroy();
    });
  });
  return listen(server, options.port, options.host);
}
