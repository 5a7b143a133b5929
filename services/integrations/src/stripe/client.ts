// The official Stripe SDK, pointed at STRIPE_API_URL (Stripe, or the local sandbox) by host, port and protocol.
import Stripe from 'stripe';
import type { IntegrationsConfig } from '../config.js';

export type StripeSettings = Pick<IntegrationsConfig, 'STRIPE_API_URL' | 'STRIPE_SECRET_KEY' | 'STRIPE_TIMEOUT_MS'>;

function target(url: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** A client with `key` (the platform's secret key, or a connected account's access token). */
export function stripeClient(settings: StripeSettings, key: string = settings.STRIPE_SECRET_KEY): Stripe {
  return new Stripe(key, { ...target(settings.STRIPE_API_URL), timeout: settings.STRIPE_TIMEOUT_MS, maxNetworkRetries: 2, telemetry: false });
}

/** Verifies a webhook with the SDK against each configured secret (several while a secret is rolled). */
export function verifyWebhook(body: Uint8Array, signature: string, secrets: string[], toleranceSeconds: number): Stripe.Event {
  const verifier = Stripe.webhooks;
  let last: unknown;
  for (const secret of secrets) {
    try {
      return verifier.constructEvent(Buffer.from(body), signature, secret, toleranceSeconds);
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof Error ? last : new Error('webhook signature verification failed');
}
