// Signed webhooks: the SDK's `stripe.webhooks.constructEvent` verifies what the sandbox sends (also with two
// `v1` values while a rolled secret is valid); deliveries can be held, repeated and sent out of order.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeSandbox, type StripeSandbox } from '../src/index.js';

const SECRET = 'whsec_contract_test_secret';
let sandbox: StripeSandbox;
let receiver: Server;
const received: Array<{ body: string; signature: string }> = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['stripe-signature']) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  sandbox = await startStripeSandbox({ webhooks: [{ url, secret: SECRET, connect: true }] });
});
afterAll(async () => {
  await sandbox?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('webhooks', () => {
  it('signs each delivery so constructEvent accepts it, and refuses a tampered body or another secret', async () => {
    const stripe = new Stripe(sandbox.secretKey, { ...sandbox.sdkConfig, maxNetworkRetries: 0 });
    const account = sandbox.createAccount({ seed: 'hooks', customers: 1, months: 1 });
    const customer = await stripe.customers.create({ name: 'Hooked' }, { stripeAccount: account.id });
    await expect.poll(() => received.length).toBe(1);
    const { body, signature } = received[0]!;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = stripe.webhooks.constructEvent(body, signature, SECRET);
    expect(event).toMatchObject({ type: 'customer.created', account: account.id, data: { object: { id: customer.id } } });
    expect(() => stripe.webhooks.constructEvent(body.replace('Hooked', 'Hacked'), signature, SECRET)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => stripe.webhooks.constructEvent(body, signature, 'whsec_other')).toThrow(Stripe.errors.StripeSignatureVerificationError);
    // Stripe's own test header generator and the sandbox agree byte for byte.
    const t = Math.floor(Date.now() / 1000);
    expect(sandbox.signatureFor(body, SECRET, t)).toBe(stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp: t }));
  });

  it('holds, repeats and reorders deliveries on request; a rolled secret signs with both secrets', async () => {
    received.length = 0;
    sandbox.setAutoDeliver(false);
    const stripe = new Stripe(sandbox.secretKey, { ...sandbox.sdkConfig, maxNetworkRetries: 0 });
    const account = sandbox.createAccount({ seed: 'hooks-2', customers: 1, months: 1 });
    const customer = await stripe.customers.create({ name: 'One' }, { stripeAccount: account.id });
    await stripe.customers.update(customer.id, { name: 'Two' }, { stripeAccount: account.id });
    const events = await stripe.events.list({ limit: 2 }, { stripeAccount: account.id });
    expect(received).toHaveLength(0);
    const [newer, older] = events.data;
    await sandbox.deliver(newer!.id, { times: 3 });
    await sandbox.deliver(older!.id, { times: 2 });
    expect(received.map((r) => (JSON.parse(r.body) as { id: string }).id)).toEqual([newer!.id, newer!.id, newer!.id, older!.id, older!.id]);

    const [endpoint] = (await stripe.webhookEndpoints.list()).data;
    sandbox.rollWebhookSecret(endpoint!.id);
    received.length = 0;
    await sandbox.deliver(older!.id);
    const { body, signature } = received[0]!;
    expect(signature.match(/v1=/g)).toHaveLength(2);
    expect(stripe.webhooks.constructEvent(body, signature, SECRET).id).toBe(older!.id);
    sandbox.setAutoDeliver(true);
  });
});
