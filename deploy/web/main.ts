// The web app's container (deploy/web.Dockerfile, charts/web): the built shell at / and each remote at
// /remotes/<name>/, one origin, on WEB_PORT. The files are served by frontends/shell/server/serve.ts (its
// precompressed .br/.gz siblings, cache headers, the shell's security headers and SPA fallback), each server
// on a loopback port behind this one; /config.json is the shell's runtime configuration, from WEB_CONFIG
// (JSON: { "publicUrl", "apiUrl", "plaid"? }, rendered by the chart from its `config` values).
// /healthz and /readyz answer here: the pod is ready once the files are being served.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { REMOTES } from '../../services/platform/src/kit/registry.js';
import { startRemoteServer, startWebServer, type RunningServer } from '../../frontends/shell/server/serve.js';

interface WebConfig {
  publicUrl: string;
  apiUrl: string;
  plaid?: { mode: 'production'; env?: string } | { mode: 'sandbox'; sandboxUrl: string };
}

function readConfig(): WebConfig {
  const raw = process.env.WEB_CONFIG;
  if (!raw) throw new Error('WEB_CONFIG is not set (JSON with publicUrl and apiUrl; the chart renders it from `config`)');
  const config = JSON.parse(raw) as Partial<WebConfig>;
  for (const key of ['publicUrl', 'apiUrl'] as const) {
    const value = config[key];
    if (typeof value !== 'string' || !/^https?:\/\//.test(value)) throw new Error(`WEB_CONFIG.${key} must be an http(s) URL`);
  }
  return config as WebConfig;
}

const config = readConfig();
const port = Number(process.env.WEB_PORT ?? 8080);
const root = process.env.WEB_ROOT ?? '/app/frontends';
const publicUrl = config.publicUrl.replace(/\/+$/, '');

const remotes = new Map<string, RunningServer>();
for (const remote of REMOTES) {
  remotes.set(remote.name, await startRemoteServer({ port: 0, host: '127.0.0.1', dir: join(root, remote.name, 'dist') }));
}
const shell = await startWebServer({
  port: 0,
  host: '127.0.0.1',
  dir: join(root, 'shell', 'dist'),
  apiUrl: config.apiUrl,
  remoteUrls: Object.fromEntries(REMOTES.map((r) => [r.name, `${publicUrl}/remotes/${r.name}`])),
  ...(config.plaid ? { plaid: config.plaid } : {}),
});

/** Hands the request to a loopback server, path rewritten, and streams its answer back unchanged. */
function forward(req: IncomingMessage, res: ServerResponse, target: RunningServer, path: string): void {
  const upstream = request(`${target.url}${path}`, { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Bad Gateway');
  });
  req.pipe(upstream);
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url === '/healthz' || url === '/readyz') {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ status: url === '/readyz' ? 'ready' : 'ok', service: 'web' }));
    return;
  }
  const remote = /^\/remotes\/([a-z]+)(\/.*)?$/.exec(url.split('?')[0] ?? '');
  if (remote) {
    const target = remotes.get(remote[1] ?? '');
    if (!target) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not Found');
      return;
    }
    forward(req, res, target, url.slice(`/remotes/${remote[1]}`.length) || '/');
    return;
  }
  forward(req, res, shell, url);
});
server.listen(port, process.env.HOST ?? '0.0.0.0', () => {
  // The bound port (WEB_PORT=0 picks a free one, as the tests do).
  process.stdout.write(`${JSON.stringify({ level: 'info', msg: 'web: listening', port: (server.address() as AddressInfo).port })}\n`);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    void Promise.all([shell.close(), ...[...remotes.values()].map((r) => r.close())]).then(() => process.exit(0));
  });
}
