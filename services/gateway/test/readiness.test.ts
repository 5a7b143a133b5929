// The gateway's readiness is its own (issue #23): with identity, every other service and Redis away, /readyz still
// answers 200 without waiting on them, so a load balancer keeps the gateway in rotation and each route answers
// for itself (an upstream that is away gives that route's 503). The chart's readinessProbe calls this path.
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES, urlSetting } from '@ledgerline/platform/registry';
import { startGateway } from './support/fake-identity.js';

/** A local address nothing listens on (bound, then released). */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise<void>((ok) => server.close(() => ok()));
  return `http://127.0.0.1:${port}`;
}

let app: FastifyInstance;

beforeAll(async () => {
  const away = await closedUrl();
  app = await startGateway(away, Object.fromEntries(SERVICES.map((s) => [urlSetting(s.name), away])));
});

afterAll(async () => {
  await app.close();
});

describe('gateway readiness', () => {
  it('is ready with every service away, and says it checks nothing of theirs', async () => {
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', service: 'gateway', checks: {} });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('while a route that needs identity answers 503 on its own', async () => {
    const res = await app.inject({ method: 'GET', url: '/users/me', headers: { authorization: 'Bearer some-token' } });
    expect(res.statusCode).toBe(503);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});
