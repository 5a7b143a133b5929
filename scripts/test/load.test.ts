// The local load runner's figures are what the bench reports as PASS or FAIL: failed answers must count
// as errors, and latencies must be the server's real ones at sub-millisecond resolution.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHttp } from '../lib/load.js';

let server: Server;
let baseUrl: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.url} ${req.headers.authorization}`);
    const reply = () => {
      res.statusCode = req.url === '/bad' ? 503 : 200;
      res.end('{}');
    };
    if (req.url === '/slow') setTimeout(reply, 25);
    else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('loadHttp (autocannon)', () => {
  it('sends the paths in turn with the headers, and counts every answer but 2xx as an error', async () => {
    seen.length = 0;
    const r = await loadHttp({
      name: 'mixed',
      baseUrl,
      paths: ['/ok', '/bad'],
      headers: { authorization: 'Bearer t' },
      connections: 2,
      seconds: 1,
      warmupSeconds: 0,
    });
    expect(r.requests).toBeGreaterThan(20);
    expect(seen.every((s) => s.endsWith(' Bearer t'))).toBe(true);
    // Each connection alternates, so half the answers were 503s.
    expect(Math.abs(r.errors - r.requests / 2)).toBeLessThanOrEqual(2);
    expect(Math.abs(r.rps * r.seconds - r.requests) / r.requests).toBeLessThan(0.02);
  });

  it('reports the latency the server took, not whole milliseconds', async () => {
    const r = await loadHttp({ name: 'slow', baseUrl, paths: ['/slow'], connections: 1, seconds: 1, warmupSeconds: 0 });
    expect(r.errors).toBe(0);
    expect(r.p50).toBeGreaterThanOrEqual(25);
    expect(r.p50).toBeLessThanOrEqual(r.p99);
    expect(r.p99).toBeLessThanOrEqual(r.max);
    // One connection waits for each answer: at most one request per 25 ms.
    expect(r.requests).toBeLessThanOrEqual(41);
    expect(Number.isInteger(r.p50) && Number.isInteger(r.p90) && Number.isInteger(r.p99)).toBe(false);
  });
});
