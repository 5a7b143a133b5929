// Webhook endpoints, Stripe's signature scheme and delivery records. A signature is
// `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the endpoint secret>`,
// with one `v1` per live secret while a rolled secret is still valid (https://docs.stripe.com/webhooks#verify-manually).
import { createHmac } from 'node:crypto';

export interface WebhookEndpoint {
  id: string;
  url: string;
  /** The current signing secret (`whsec_...`). */
  secret: string;
  /** Rolled secrets still accepted until their expiry (Unix seconds): each adds a `v1` to the header. */
  previous: Array<{ secret: string; expiresAt: number }>;
  /** true: receives the events of connected accounts (a Connect endpoint); false: the platform's own. */
  connect: boolean;
  enabledEvents: string[];
  created: number;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  /** The receiver's HTTP status, or 0 when it could not be reached. */
  status: number;
  at: number;
  signature: string;
}

export function signPayload(payload: string, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
}

export function signatureHeader(payload: string, secrets: string[], timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${signPayload(payload, s, timestamp)}`)].join(',');
}

/** The endpoint's wire shape (`object: "webhook_endpoint"`); the secret is shown only when created. */
export function endpointWire(endpoint: WebhookEndpoint, withSecret: boolean): Record<string, unknown> {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint',
    api_version: null,
    application: null,
    created: endpoint.created,
    description: null,
    enabled_events: endpoint.enabledEvents,
    livemode: false,
    metadata: {},
    status: 'enabled',
    url: endpoint.url,
    ...(withSecret ? { secret: endpoint.secret } : {}),
  };
}

export function subscribes(endpoint: WebhookEndpoint, type: string): boolean {
  return endpoint.enabledEvents.includes('*') || endpoint.enabledEvents.includes(type);
}
