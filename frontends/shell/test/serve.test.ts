/// <reference types="node" />
// serve.ts on a temporary build folder precompressed by precompress.ts: content negotiation, caching headers,
// validators, ranges and the SPA fallback, checked on the raw bytes (node:http, which never decodes).
import { mkdtemp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '@ledgerline/ui/precompress';
import { acceptedEncodings, parseRange, startRemoteServer, startWebServer, type RunningServer } from '../server/serve';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

const APP_JS = `${'export const ledger = "Ledgerline";\n'.repeat(200)}console.log(ledger);\n`;
const INDEX_HTML = `<!doctype html><html><head><title>Ledgerline</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(40)}<script src="/static/js/index.0123abcd99.js"></script></body></html>`;
const MANIFEST = JSON.stringify({ id: 'shell', metaData: { remoteEntry: { name: 'remoteEntry.js' } }, padding: 'x'.repeat(400) });
const HASHED = '/static/js/index.0123abcd99.js';

let dir: string;
let web: RunningServer;
let remote: RunningServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'll-serve-'));
  await mkdir(join(dir, 'static/js'), { recursive: true });
  await writeFile(join(dir, 'index.html'), INDEX_HTML);
  await writeFile(join(dir, 'mf-manifest.json'), MANIFEST);
  await writeFile(join(dir, HASHED.slice(1)), APP_JS);
  await writeFile(join(dir, 'static/js/tiny.0123abcd99.js'), 'export {};\n');
  await writeFile(join(dir, 'favicon.png'), Buffer.alloc(1024, 7));
  await precompressDir(dir);
  web = await startWebServer({
    port: 0,
    host: '127.0.0.1',
    dir,
    apiUrl: 'http://api.test',
    remoteUrls: { settings: 'http://s.test', accounting: 'http://a.test', reports: 'http://r.test' },
  });
  remote = await startRemoteServer({ port: 0, host: '127.0.0.1', dir });
});

afterAll(async () => {
  await web?.close();
  await remote?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('precompressDir', () => {
  it('writes .br and .gz next to text assets worth compressing, and not next to tiny files or images', async () => {
    const files = [...(await readdir(dir)), ...(await readdir(join(dir, 'static/js'))).map((f) => `static/js/${f}`)].sort();
    expect(files).toEqual(
      [
        'favicon.png',
        'index.html',
        'index.html.br',
        'index.html.gz',
        'mf-manifest.json',
        'mf-manifest.json.br',
        'mf-manifest.json.gz',
        'static',
        'static/js/index.0123abcd99.js',
        'static/js/index.0123abcd99.js.br',
        'static/js/index.0123abcd99.js.gz',
        'static/js/tiny.0123abcd99.js',
      ].sort(),
    );
  });

  it('does not compress its own output again when run twice', async () => {
    await precompressDir(dir);
    expect((await readdir(join(dir, 'static/js'))).filter((f) => f.endsWith('.br.br') || f.endsWith('.gz.gz') || f.endsWith('.br.gz'))).toEqual([]);
  });
});

describe('content negotiation', () => {
  it('serves brotli when the browser accepts it (br preferred over gzip)', async () => {
    const r = await get(`${web.url}${HASHED}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(r.headers.vary).toBe('Accept-Encoding');
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(r.body.length).toBeLessThan(APP_JS.length / 10);
    expect(brotliDecompressSync(r.body).toString()).toBe(APP_JS);
  });

  it('serves gzip when only gzip is accepted', async () => {
    const r = await get(`${web.url}${HASHED}`, { 'accept-encoding': 'gzip' });
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(r.body).toString()).toBe(APP_JS);
  });

  it('serves the file as built without Accept-Encoding, or when br and gzip are refused', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0, deflate' },
      { 'accept-encoding': '*;q=0, identity' },
    ]) {
      const r = await get(`${web.url}${HASHED}`, headers);
      expect(r.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(r.headers.vary).toBe('Accept-Encoding');
      expect(r.body.toString()).toBe(APP_JS);
    }
  });

  it('accepts br through a wildcard, and reads q-values', () => {
    expect(acceptedEncodings('*')).toEqual({ br: true, gzip: true });
    expect(acceptedEncodings('gzip;q=0.5, br;q=0')).toEqual({ br: false, gzip: true });
    expect(acceptedEncodings(undefined)).toEqual({ br: false, gzip: false });
    expect(acceptedEncodings('BR')).toEqual({ br: true, gzip: false });
  });

  it('sends no Vary for a file without compressed siblings', async () => {
    const r = await get(`${web.url}/static/js/tiny.0123abcd99.js`, { 'accept-encoding': 'br, gzip' });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers.vary).toBeUndefined();
    expect(r.body.toString()).toBe('export {};\n');
    const png = await get(`${web.url}/favicon.png`, { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
  });
});

describe('caching', () => {
  it('marks content-hashed assets immutable for a year and revalidates index.html and the manifest', async () => {
    expect((await get(`${web.url}${HASHED}`, { 'accept-encoding': 'br' })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(`${web.url}/index.html`, { 'accept-encoding': 'br' })).headers['cache-control']).toBe('no-cache');
    expect((await get(`${remote.url}/mf-manifest.json`, { 'accept-encoding': 'br' })).headers['cache-control']).toBe('no-cache');
    expect((await get(`${web.url}/config.json`)).headers['cache-control']).toBe('no-store');
  });

  it('answers 304 to a matching If-None-Match, with an ETag per encoding', async () => {
    const br = await get(`${web.url}${HASHED}`, { 'accept-encoding': 'br' });
    const gz = await get(`${web.url}${HASHED}`, { 'accept-encoding': 'gzip' });
    const plain = await get(`${web.url}${HASHED}`);
    const tags = [br.headers.etag, gz.headers.etag, plain.headers.etag];
    expect(new Set(tags).size).toBe(3);
    const again = await get(`${web.url}${HASHED}`, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.vary).toBe('Accept-Encoding');
    // A cached gzip body is not fresh for a browser that now gets br.
    expect((await get(`${web.url}${HASHED}`, { 'accept-encoding': 'br', 'if-none-match': String(gz.headers.etag) })).status).toBe(200);
  });
});

describe('HEAD and ranges', () => {
  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await get(`${web.url}${HASHED}`, { 'accept-encoding': 'br' }, 'HEAD');
    const full = await get(`${web.url}${HASHED}`, { 'accept-encoding': 'br' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.headers['content-encoding']).toBe('br');
  });

  it('serves one byte range of the representation it negotiated, and 416 beyond its end', async () => {
    const r = await get(`${web.url}${HASHED}`, { range: 'bytes=7-16' });
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 7-16/${APP_JS.length}`);
    expect(r.body.toString()).toBe(APP_JS.slice(7, 17));
    const last = await get(`${web.url}${HASHED}`, { range: 'bytes=-5' });
    expect(last.body.toString()).toBe(APP_JS.slice(-5));
    const beyond = await get(`${web.url}${HASHED}`, { range: `bytes=${APP_JS.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${APP_JS.length}`);
    const gz = await get(`${web.url}${HASHED}`, { range: 'bytes=0-1', 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect([...gz.body]).toEqual([0x1f, 0x8b]);
  });

  it('parses ranges', () => {
    expect(parseRange('bytes=0-', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=0-1,3-4', 10)).toBeNull();
    expect(parseRange('bytes=5-2', 10)).toBe('unsatisfiable');
    expect(parseRange(undefined, 10)).toBeNull();
  });
});

describe('SPA fallback', () => {
  it('answers a client-side route with index.html, compressed to what the browser accepts and labelled as html', async () => {
    for (const [accept, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
      ['', (b: Buffer) => b],
    ] as const) {
      const r = await get(`${web.url}/dashboard`, accept ? { 'accept-encoding': accept } : {});
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['content-encoding']).toBe(accept || undefined);
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(decode(r.body).toString()).toBe(INDEX_HTML);
    }
    const root = await get(`${web.url}/`, { 'accept-encoding': 'br' });
    expect(brotliDecompressSync(root.body).toString()).toBe(INDEX_HTML);
  });

  it('does not answer a missing asset with index.html', async () => {
    const r = await get(`${web.url}/static/js/gone.0123abcd99.js`, { 'accept-encoding': 'br' });
    expect(r.status).toBe(404);
    expect(r.headers['content-encoding']).toBeUndefined();
  });

  it('serves a remote with CORS and the same negotiation', async () => {
    const r = await get(`${remote.url}${HASHED}`, { 'accept-encoding': 'gzip, br' });
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(brotliDecompressSync(r.body).toString()).toBe(APP_JS);
  });
});
