import { createHash, timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader, importJWK, jwtVerify, type CryptoKey, type JWK } from 'jose';
import type { PlaidClient } from './client.js';

/** Plaid's limit on a webhook's age (iat), as in Plaid's own verification guide. */
export const MAX_WEBHOOK_AGE_SECONDS = 5 * 60;

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

interface CachedKey {
  key: CryptoKey | Uint8Array;
  /** Plaid's `expired_at` in ms; null while the key is current. */
  expiredAt: number | null;
  refreshAt: number;
}

/**
 * Verifies a Plaid webhook the way Plaid documents it (RELIABILITY 11): the Plaid-Verification header
 * is a JWT signed with ES256; its key is fetched by `kid` from /webhook_verification_key/get and cached
 * (an expired key is refused; when a new kid appears, the cached current keys are fetched again so a
 * rotated-out key learns its expiry, as in Plaid's own example); `iat` is at most 5 minutes old; the
 * SHA-256 of the raw body equals the token's `request_body_sha256`, compared in constant time. Any
 * failure throws.
 */
export class PlaidWebhookVerifier {
  private readonly keys = new Map<string, CachedKey>();

  constructor(
    private readonly plaid: PlaidClient,
    private readonly options: { keyCacheMs: number; now?: () => number },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private async fetchKey(kid: string): Promise<CachedKey> {
    const jwk = (await this.plaid.webhookVerificationKeyGet({ key_id: kid })).data.key;
    const key = await importJWK({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, alg: 'ES256' } as JWK, 'ES256');
    const cached = {
      key,
      expiredAt: jwk.expired_at === null || jwk.expired_at === undefined ? null : jwk.expired_at * 1000,
      refreshAt: this.now() + this.options.keyCacheMs,
    };
    this.keys.set(kid, cached);
    return cached;
  }

  private async keyFor(kid: string): Promise<CryptoKey | Uint8Array> {
    let cached = this.keys.get(kid);
    if (!cached || cached.refreshAt <= this.now()) {
      const isNew = !cached;
      cached = await this.fetchKey(kid);
      if (isNew) {
        // A new key usually means a rotation: the keys we hold as current may have expired meanwhile.
        for (const [other, entry] of this.keys) if (other !== kid && entry.expiredAt === null) await this.fetchKey(other).catch(() => this.keys.delete(other));
      }
    }
    if (cached.expiredAt !== null && cached.expiredAt <= this.now()) throw new WebhookVerificationError('verification key expired');
    return cached.key;
  }

  /** The verified token's SHA-256 (a replay of the same signed request has the same one). */
  async verify(rawBody: Uint8Array, token: string): Promise<Buffer> {
    if (!token) throw new WebhookVerificationError('missing Plaid-Verification header');
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new WebhookVerificationError('malformed Plaid-Verification token');
    }
    if (header.alg !== 'ES256') throw new WebhookVerificationError('unexpected algorithm');
    if (typeof header.kid !== 'string' || header.kid === '') throw new WebhookVerificationError('no key id');
    let key: CryptoKey | Uint8Array;
    try {
      key = await this.keyFor(header.kid);
    } catch (err) {
      if (err instanceof WebhookVerificationError) throw err;
      throw new WebhookVerificationError('verification key unavailable');
    }
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, key, { algorithms: ['ES256'], currentDate: new Date(this.now()) }));
    } catch {
      throw new WebhookVerificationError('bad signature');
    }
    const iat = payload.iat;
    if (typeof iat !== 'number' || Math.abs(this.now() / 1000 - iat) > MAX_WEBHOOK_AGE_SECONDS) throw new WebhookVerificationError('token too old');
    const claimed = payload.request_body_sha256;
    if (typeof claimed !== 'string' || !/^[0-9a-f]{64}$/i.test(claimed)) throw new WebhookVerificationError('no body hash');
    const actual = createHash('sha256').update(rawBody).digest();
    if (!timingSafeEqual(actual, Buffer.from(claimed.toLowerCase(), 'hex'))) throw new WebhookVerificationError('body hash mismatch');
    return createHash('sha256').update(token).digest();
  }
}
