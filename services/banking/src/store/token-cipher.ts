// Provider tokens at rest (issue #15 item 4): AES-256-GCM (node:crypto) under a key from configuration,
// with the key's id stored beside the ciphertext so keys rotate: the first key of PLAID_TOKEN_KEYS seals,
// every listed key opens, and rows sealed under an older key (or still in plain text from before) are
// sealed again under the current one when the service starts (resealTokens).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The columns of a sealed token: `v1.<iv>.<tag>.<ciphertext>` (base64url) and the id of its key. */
export interface SealedToken {
  access_token: string;
  access_token_key_id: string;
}

/** Key id of the development key; production refuses it. */
export const DEVELOPMENT_TOKEN_KEY_ID = 'dev';
/** `id:base64-of-32-bytes`, comma-separated, the current key first. */
export const DEVELOPMENT_TOKEN_KEYS = `${DEVELOPMENT_TOKEN_KEY_ID}:${Buffer.from('development-only-plaid-token-key').toString('base64')}`;

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';

export class TokenKeyError extends Error {
  override readonly name = 'TokenKeyError';
}

/** Parses PLAID_TOKEN_KEYS: refuses empty lists, duplicate ids and keys that are not 32 bytes. */
export function parseTokenKeys(text: string): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = part.indexOf(':');
    const id = at > 0 ? part.slice(0, at) : '';
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw new TokenKeyError('each key is written id:base64 with an id of letters, digits, - or _');
    if (keys.has(id)) throw new TokenKeyError(`key id ${id} appears twice`);
    const key = Buffer.from(part.slice(at + 1), 'base64');
    if (key.length !== 32) throw new TokenKeyError(`key ${id} must be 32 bytes (base64 of 32 random bytes)`);
    keys.set(id, key);
  }
  if (keys.size === 0) throw new TokenKeyError('at least one key is required');
  return keys;
}

export class TokenCipher {
  private readonly keys: Map<string, Buffer>;
  readonly currentKeyId: string;

  constructor(keysText: string) {
    this.keys = parseTokenKeys(keysText);
    this.currentKeyId = this.keys.keys().next().value!;
  }

  /** Seals `token` under the current key, bound to `context` (the Plaid item id) so a ciphertext cannot be moved to another row. */
  seal(token: string, context: string): SealedToken {
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    const parts = [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')];
    return { access_token: parts.join('.'), access_token_key_id: this.currentKeyId };
  }

  /** Opens a stored token; a row without key id is a token stored before encryption (plain text). */
  open(row: { access_token: string; access_token_key_id: string | null }, context: string): string {
    if (row.access_token_key_id === null) return row.access_token;
    const key = this.keys.get(row.access_token_key_id);
    if (!key) throw new TokenKeyError(`the token was sealed under key ${row.access_token_key_id}, which PLAID_TOKEN_KEYS no longer lists`);
    const [version, iv, tag, ciphertext] = row.access_token.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new TokenKeyError('the stored token is not in the v1 format');
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** True when the row must be sealed again (plain text, or an older key). */
  isStale(row: { access_token_key_id: string | null }): boolean {
    return row.access_token_key_id !== this.currentKeyId;
  }

  usesDevelopmentKey(): boolean {
    return this.keys.has(DEVELOPMENT_TOKEN_KEY_ID);
  }
}
