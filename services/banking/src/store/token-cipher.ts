// Provider tokens at rest (issue #15 item 4): the chassis' SecretCipher (AES-256-GCM under a key from configuration,
// the key's id beside the ciphertext, bound to the Plaid item id), in the columns banking stores them in. The first
// key of PLAID_TOKEN_KEYS seals, every listed key opens, and rows sealed under an older key (or still in plain text
// from before encryption) are sealed again under the current one when the service starts (resealTokens).
import { DEVELOPMENT_SECRET_KEY_ID, SecretCipher, parseSecretKeys } from '@ledgerline/platform';

/** The columns of a sealed token: `v1.<iv>.<tag>.<ciphertext>` (base64url) and the id of its key. */
export interface SealedToken {
  access_token: string;
  access_token_key_id: string;
}

/** Key id of the development key; production refuses it. */
export const DEVELOPMENT_TOKEN_KEY_ID = DEVELOPMENT_SECRET_KEY_ID;
/** `id:base64-of-32-bytes`, comma-separated, the current key first. The development key sealed tokens before, so it stays as it is. */
export const DEVELOPMENT_TOKEN_KEYS = `${DEVELOPMENT_TOKEN_KEY_ID}:${Buffer.from('development-only-plaid-token-key').toString('base64')}`;

/** Parses PLAID_TOKEN_KEYS: refuses empty lists, duplicate ids and keys that are not 32 bytes. */
export const parseTokenKeys = parseSecretKeys;

export class TokenCipher {
  private readonly cipher: SecretCipher;

  constructor(keysText: string) {
    this.cipher = new SecretCipher(keysText);
  }

  get currentKeyId(): string {
    return this.cipher.currentKeyId;
  }

  /** Seals `token` under the current key, bound to `context` (the Plaid item id) so a ciphertext cannot be moved to another row. */
  seal(token: string, context: string): SealedToken {
    const sealed = this.cipher.seal(token, context);
    return { access_token: sealed.ciphertext, access_token_key_id: sealed.keyId };
  }

  /** Opens a stored token; a row without key id is a token stored before encryption (plain text). */
  open(row: { access_token: string; access_token_key_id: string | null }, context: string): string {
    if (row.access_token_key_id === null) return row.access_token;
    return this.cipher.open({ ciphertext: row.access_token, keyId: row.access_token_key_id }, context);
  }

  /** True when the row must be sealed again (plain text, or an older key). */
  isStale(row: { access_token_key_id: string | null }): boolean {
    return row.access_token_key_id !== this.currentKeyId;
  }

  usesDevelopmentKey(): boolean {
    return this.cipher.usesDevelopmentKey();
  }
}
