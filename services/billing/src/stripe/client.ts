// The official Stripe SDK on the platform's own account, pointed at STRIPE_API_URL (Stripe, or the local sandbox).
import Stripe from 'stripe';
import type { BillingConfig } from '../config.js';

export type StripeSettings = Pick<BillingConfig, 'STRIPE_API_URL' | 'STRIPE_SECRET_KEY' | 'STRIPE_TIMEOUT_MS'>;

export function stripeClient(settings: StripeSettings): Stripe {
  const url = new URL(settings.STRIPE_API_URL);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(settings.STRIPE_SECRET_KEY, {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
    timeout: settings.STRIPE_TIMEOUT_MS,
    maxNetworkRetries: 2,
    telemetry: false,
  });
}

/** Verifies a webhook with the SDK's constructEvent against each configured secret (several while one is rolled). */
export function verifyWebhook(body: Uint8Array, signature: string, secrets: string[], toleranceSeconds: number): Stripe.Event {
  let last: unknown;
  for (const secret of secrets) {
    try {
      return Stripe.webhooks.constructEvent(Buffer.from(body), signature, secret, toleranceSeconds);
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof Error ? last : new Error('webhook signature verification failed');
}
