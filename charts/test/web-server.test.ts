/**
 * The web image's server (deploy/web/main.ts) as the container runs it, on a stand-in build: the shell at /,
 * each remote of the registry at /remotes/<name>/, precompressed files sent with their encoding, the runtime
 * /config.json from WEB_CONFIG naming the remotes under the public URL, client routes falling back to the app,
 * and the probes the chart's Deployment uses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOTES } from '@ledgerline/platform/registry';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const INDEX = '<!doctype html><html><head><title>Ledgerline</title></head><body><div id="root"></div></body></html>';
const CONFIG = { publicUrl: 'https://app.example.test', apiUrl: 'https://api.example.test', plaid: { mode: 'production', env: 'production' } };

let root = '';
let child: ChildProcess | undefined;
let base = '';

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ledgerline-web-'));
  mkdirSync(join(root, 'shell', 'dist', 'static'), { recursive: true });
  writeFileSync(join(root, 'shell', 'dist', 'index.html'), INDEX);
  writeFileSync(join(root, 'shell', 'dist', 'index.html.br'), brotliCompressSync(INDEX));
  for (const remote of REMOTES) {
    mkdirSync(join(root, remote.name, 'dist'), { recursive: true });
    writeFileSync(join(root, remote.name, 'dist', 'mf-manifest.json'), JSON.stringify({ name: remote.name }));
  }
  child = spawn(process.execPath, ['--conditions=ledgerline-source', '--import', 'tsx', 'deploy/web/main.ts'], {
    cwd: repoDir,
    env: { ...process.env, WEB_CONFIG: JSON.stringify(CONFIG), WEB_PORT: '0', WEB_ROOT: root, HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  base = await new Promise<string>((ok, fail) => {
    let out = '';
    child?.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /"msg":"web: listening","port":(\d+)/.exec(out)?.[1];
      if (port) ok(`http://127.0.0.1:${port}`);
    });
    child?.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child?.on('exit', (code) => fail(new Error(`deploy/web/main.ts exited with ${code}:\n${out}`)));
  });
}, 60_000);

afterAll(() => {
  child?.kill('SIGTERM');
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('deploy/web/main.ts', () => {
  it('answers the probes', async () => {
    for (const path of ['/healthz', '/readyz']) expect((await fetch(`${base}${path}`)).status, path).toBe(200);
  });

  it('serves /config.json from WEB_CONFIG, each remote under the public URL', async () => {
    const res = await fetch(`${base}/config.json`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      apiUrl: CONFIG.apiUrl,
      remotes: Object.fromEntries(REMOTES.map((r) => [r.name, `${CONFIG.publicUrl}/remotes/${r.name}/mf-manifest.json`])),
      plaid: CONFIG.plaid,
    });
  });

  it('sends the precompressed shell to a client that accepts br, and client routes fall back to it', async () => {
    for (const path of ['/', '/dashboard']) {
      const res = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'br' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-encoding'), path).toBe('br');
      expect(res.headers.get('content-security-policy'), path).toContain("default-src 'self'");
    }
    // fetch decodes br itself: compare the body through a client that does not.
    const raw = await new Promise<Buffer>((ok, fail) => {
      void import('node:http').then(({ get }) =>
        get(`${base}/`, { headers: { 'accept-encoding': 'br' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => ok(Buffer.concat(chunks)));
        }).on('error', fail),
      );
    });
    expect(brotliDecompressSync(raw).toString()).toBe(INDEX);
    expect(await (await fetch(`${base}/static/missing.js`)).text()).toBe('Not Found');
  });

  it('serves every remote of the registry at /remotes/<name>/, readable from any origin', async () => {
    for (const remote of REMOTES) {
      const res = await fetch(`${base}/remotes/${remote.name}/mf-manifest.json`);
      expect(res.status, remote.name).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({ name: remote.name });
    }
    expect((await fetch(`${base}/remotes/nosuch/mf-manifest.json`)).status).toBe(404);
  });
});
