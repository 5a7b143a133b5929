// Provider secrets at rest (OAuth access tokens of Stripe, QuickBooks, ...): AES-256-GCM (node:crypto) under an
// envelope key from configuration, the key's id stored beside the ciphertext so keys rotate: the first listed
// key seals, every listed key opens. Each ciphertext is bound to a context (e.g. the provider account id) as
// additional authenticated data, so it cannot be moved to another row. Banking's Plaid tokens, the integrations'
// Stripe and QuickBooks tokens: one implementation for every service.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SealedSecret {
  /** `v1.<iv>.<tag>.<ciphertext>` (base64url). */
  ciphertext: string;
  keyId: string;
}

export class SecretKeyError extends Error {
  override readonly name = 'SecretKeyError';
}

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';

/** Key id of development keys; production refuses them (`usesDevelopmentKey`). */
export const DEVELOPMENT_SECRET_KEY_ID = 'dev';

/** A development key list `dev:<base64 of 32 bytes made from label>`: never for production. */
export function developmentSecretKeys(label: string): string {
  return `${DEVELOPMENT_SECRET_KEY_ID}:${Buffer.from(label.padEnd(32, '-').slice(0, 32)).toString('base64')}`;
}

/** Parses `id:base64-of-32-bytes`, comma-separated, the current key first; refuses empty lists, duplicate ids, short keys. */
export function parseSecretKeys(text: string): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = part.indexOf(':');
    const id = at > 0 ? part.slice(0, at) : '';
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw new SecretKeyError('each key is written id:base64 with an id of letters, digits, - or _');
    if (keys.has(id)) throw new SecretKeyError(`key id ${id} appears twice`);
    const key = Buffer.from(part.slice(at + 1), 'base64');
    if (key.length !== 32) throw new SecretKeyError(`key ${id} must be 32 bytes (base64 of 32 random bytes)`);
    keys.set(id, key);
  }
  if (keys.size === 0) throw new SecretKeyError('at least one key is required');
  return keys;
}

/** A zod-friendly check of a key list: true when `parseSecretKeys` accepts it. */
export function isSecretKeyList(text: string): boolean {
  try {
    parseSecretKeys(text);
    return true;
  } catch {
    return false;
  }
}

export class SecretCipher {
  private readonly keys: Map<string, Buffer>;
  readonly currentKeyId: string;

  constructor(keysText: string) {
    this.keys = parseSecretKeys(keysText);
    this.currentKeyId = this.keys.keys().next().value!;
  }

  seal(secret: string, context: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return {
      ciphertext: [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.'),
      keyId: this.currentKeyId,
    };
  }

  open(sealed: SealedSecret, context: string): string {
    const key = this.keys.get(sealed.keyId);
    if (!key) throw new SecretKeyError(`the secret was sealed under key ${sealed.keyId}, which the configuration no longer lists`);
    const [version, iv, tag, body] = sealed.ciphertext.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new SecretKeyError('the stored secret is not in the v1 format');
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  usesDevelopmentKey(): boolean {
    return this.keys.has(DEVELOPMENT_SECRET_KEY_ID);
  }
}
