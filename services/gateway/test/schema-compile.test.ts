// The gateway compiles its routes' validators and serializers eagerly in production (a broken schema stops the
// start) and lazily elsewhere (tests start it in a fraction of the time). Both must validate alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeIdentity, startGateway, type FakeIdentity } from './support/fake-identity.js';

let identity: FakeIdentity;
beforeAll(async () => {
  identity = await startFakeIdentity();
});
afterAll(async () => identity.close());

const broken = { response: { 200: { type: 'object', properties: { a: { type: 'no-such-type' } } } } };

describe.each(['eager', 'lazy'] as const)('GATEWAY_SCHEMA_COMPILE=%s', (mode) => {
  it('compiles every documented route, refuses bad input naming the field, and serialises answers by their schema', async () => {
    const app = await startGateway(identity.url, { GATEWAY_SCHEMA_COMPILE: mode });
    try {
      await app.ready();
      const res = await app.inject({ method: 'POST', url: '/signup', payload: { email: 42 } });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain('email');
      // The same refusal the second time: a lazily compiled validator keeps answering with its errors.
      const again = await app.inject({ method: 'POST', url: '/signup', payload: { email: 42 } });
      expect(again.json()).toEqual(res.json());
      const health = await app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it(mode === 'eager' ? 'a broken response schema stops the start' : 'a broken response schema fails only its own route', async () => {
    const app = await startGateway(identity.url, { GATEWAY_SCHEMA_COMPILE: mode });
    try {
      app.get('/broken-schema', { schema: broken }, async () => ({ a: 1 }));
      if (mode === 'eager') {
        await expect(app.ready()).rejects.toThrow();
      } else {
        await app.ready();
        expect((await app.inject({ method: 'GET', url: '/broken-schema' })).statusCode).toBe(500);
        expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      }
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});
