// Webhooks signed as Plaid signs them: the `Plaid-Verification` header is an ES256 JWT whose header holds
// { alg: 'ES256', kid, typ: 'JWT' } and whose payload holds { iat, request_body_sha256 } (hex SHA-256 of the
// exact body bytes). The public key is served by kid from /webhook_verification_key/get as a JWK.
// Bodies are JSON with sorted keys and two-space indentation, like Plaid's.
import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import type { JWKPublicKey, WebhookBody } from './domain/wire.js';

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly jwk: JWKPublicKey;
}

export class WebhookKeys {
  private readonly keys: SigningKey[] = [];

  private constructor(private readonly now: () => Date) {}

  static async create(now: () => Date): Promise<WebhookKeys> {
    const keys = new WebhookKeys(now);
    await keys.rotate();
    return keys;
  }

  /** Starts signing with a new key; the previous one stays retrievable with `expired_at` set. */
  async rotate(): Promise<JWKPublicKey> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const exported = await exportJWK(publicKey);
    const kid = randomUUID();
    const createdAt = Math.floor(this.now().getTime() / 1000);
    const previous = this.keys[this.keys.length - 1];
    if (previous) previous.jwk.expired_at = createdAt;
    const jwk: JWKPublicKey = {
      alg: 'ES256',
      created_at: createdAt,
      crv: exported.crv ?? 'P-256',
      expired_at: null,
      kid,
      kty: exported.kty ?? 'EC',
      use: 'sig',
      x: exported.x ?? '',
      y: exported.y ?? '',
    };
    this.keys.push({ kid, privateKey, jwk });
    return { ...jwk };
  }

  get(kid: string): JWKPublicKey | undefined {
    const key = this.keys.find((k) => k.kid === kid);
    return key ? { ...key.jwk } : undefined;
  }

  get currentKid(): string {
    return this.active().kid;
  }

  /** The `Plaid-Verification` value for these exact body bytes. */
  async sign(body: string | Uint8Array, options: { iat?: number } = {}): Promise<string> {
    const key = this.active();
    return new SignJWT({ request_body_sha256: sha256Hex(body) })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
      .setIssuedAt(options.iat ?? Math.floor(this.now().getTime() / 1000))
      .sign(key.privateKey);
  }

  private active(): SigningKey {
    const key = this.keys[this.keys.length - 1];
    if (!key) throw new Error('no webhook signing key');
    return key;
  }
}

export function sha256Hex(body: string | Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

/** Plaid's webhook body bytes: keys sorted, two-space indentation. */
export function serializeWebhook(body: WebhookBody): string {
  return JSON.stringify(sortKeys(body), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export interface WebhookDelivery {
  delivery_id: string;
  item_id: string;
  url: string;
  webhook_type: string;
  webhook_code: string;
  /** The exact bytes sent. */
  body: string;
  payload: WebhookBody;
  plaid_verification: string;
  sent_at: string;
  /** HTTP status of the receiver's answer, or null if it could not be reached. */
  status: number | null;
  error: string | null;
  duration_ms: number;
  /** Set when this delivery re-sent an earlier one. */
  replay_of: string | null;
}

export async function deliver(
  keys: WebhookKeys,
  url: string,
  itemId: string,
  payload: WebhookBody,
  options: { now: () => Date; timeoutMs: number; body?: string; replayOf?: string },
): Promise<WebhookDelivery> {
  const body = options.body ?? serializeWebhook(payload);
  const plaidVerification = await keys.sign(body);
  const started = Date.now();
  const delivery: WebhookDelivery = {
    delivery_id: randomUUID(),
    item_id: itemId,
    url,
    webhook_type: payload.webhook_type,
    webhook_code: payload.webhook_code,
    body,
    payload,
    plaid_verification: plaidVerification,
    sent_at: options.now().toISOString(),
    status: null,
    error: null,
    duration_ms: 0,
    replay_of: options.replayOf ?? null,
  };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Plaid-Verification': plaidVerification, 'User-Agent': 'Plaid Verifier' },
      body,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    delivery.status = response.status;
    await response.arrayBuffer().catch(() => undefined);
  } catch (error) {
    delivery.error = error instanceof Error ? error.message : String(error);
  }
  delivery.duration_ms = Date.now() - started;
  return delivery;
}
