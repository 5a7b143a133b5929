// Plaid access tokens at rest: AES-256-GCM under a configured key whose id sits beside the ciphertext;
// plain-text rows from before and rows under a retired key are sealed again under the current key.
import { randomBytes } from 'node:crypto';
import { createLogger, newId, withTenant } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingConfigSchema } from '../src/config.js';
import { assertBankingConfig } from '../src/service.js';
import { items } from '../src/store/banking-store.js';
import { bankingMigrations } from '../src/store/migrations.js';
import { DEVELOPMENT_TOKEN_KEYS, TokenCipher } from '../src/store/token-cipher.js';
import { resealTokens } from '../src/usecases/tokens.js';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const TOKEN = 'access-sandbox-5b1f0c2e-8d7a-4b3c-9e6f-0a1b2c3d4e5f';

describe('TokenCipher', () => {
  it('seals to a ciphertext without the token that opens only with the same item id', () => {
    const cipher = new TokenCipher(key('k1'));
    const sealed = cipher.seal(TOKEN, 'item-a');
    expect(sealed.access_token_key_id).toBe('k1');
    expect(sealed.access_token).not.toContain(TOKEN);
    expect(sealed.access_token).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(cipher.seal(TOKEN, 'item-a').access_token).not.toBe(sealed.access_token); // fresh IV each time
    expect(cipher.open(sealed, 'item-a')).toBe(TOKEN);
    expect(() => cipher.open(sealed, 'item-b')).toThrow();
    const [v, iv, tag, ct] = sealed.access_token.split('.');
    const flipped = Buffer.from(ct!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => cipher.open({ ...sealed, access_token: [v, iv, tag, flipped.toString('base64url')].join('.') }, 'item-a')).toThrow();
  });

  it('opens under every listed key, seals under the first, and names a key it no longer has', () => {
    const old = key('k1');
    const sealedOld = new TokenCipher(old).seal(TOKEN, 'item-a');
    const rotated = new TokenCipher(`${key('k2')},${old}`);
    expect(rotated.open(sealedOld, 'item-a')).toBe(TOKEN);
    expect(rotated.isStale(sealedOld)).toBe(true);
    expect(rotated.seal(TOKEN, 'item-a').access_token_key_id).toBe('k2');
    expect(() => new TokenCipher(key('k3')).open(sealedOld, 'item-a')).toThrow(/key k1/);
  });

  it('opens a token sealed before the cipher moved into the chassis (the same v1 format, key and item binding)', () => {
    // Sealed by banking's own AES-256-GCM code under the development key before it became SecretCipher's adapter.
    const stored = {
      access_token: 'v1.tRiciBz8VzYbYeMk.9XpfTLd9QAK3p29f-mc6iA.U4tRk-AS2-gkocKL0mDYx9jh0Ho1f6vDTAeXEonpgtMkLT8OohM-Q5cEczqD_GkmyrqW',
      access_token_key_id: 'dev',
    };
    const cipher = new TokenCipher(DEVELOPMENT_TOKEN_KEYS);
    expect(cipher.open(stored, 'item-a')).toBe(TOKEN);
    expect(() => cipher.open(stored, 'item-b')).toThrow();
    expect(cipher.isStale(stored)).toBe(false);
  });

  it('refuses malformed key lists, and production refuses the development key', () => {
    expect(() => new TokenCipher('')).toThrow();
    expect(() => new TokenCipher('k1:c2hvcnQ=')).toThrow(/32 bytes/);
    expect(() => new TokenCipher(`${key('k1')},${key('k1')}`)).toThrow(/twice/);
    expect(bankingConfigSchema.safeParse({ PLAID_TOKEN_KEYS: 'nonsense' }).success).toBe(false);
    expect(() => assertBankingConfig(bankingConfigSchema.parse({ NODE_ENV: 'production', PLAID_TOKEN_KEYS: DEVELOPMENT_TOKEN_KEYS }))).toThrow(
      /PLAID_TOKEN_KEYS/,
    );
    expect(() =>
      assertBankingConfig(bankingConfigSchema.parse({ NODE_ENV: 'production', PLAID_TOKEN_KEYS: `${key('prod1')},${DEVELOPMENT_TOKEN_KEYS}` })),
    ).toThrow(/PLAID_TOKEN_KEYS/);
    expect(() => assertBankingConfig(bankingConfigSchema.parse({ NODE_ENV: 'production', PLAID_TOKEN_KEYS: key('prod1') }))).not.toThrow();
    expect(() => assertBankingConfig(bankingConfigSchema.parse({ NODE_ENV: 'development' }))).not.toThrow();
  });
});

describe('resealing stored tokens', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('banking_tokens', bankingMigrations);
  });
  afterAll(async () => db?.drop());

  it('seals plain-text rows of every workspace, then moves them to a new key', async () => {
    const rows = [newId(), newId()].map((workspaceId, i) => ({
      id: newId(),
      workspace_id: workspaceId,
      item_id: `item-${i}`,
      access_token: `${TOKEN}-${i}`,
      access_token_key_id: null,
      institution_id: 'ins_1',
      institution_name: 'Bank',
    }));
    for (const row of rows) await withTenant(db.appDb, { workspaceId: row.workspace_id }, (trx) => items.upsert(trx, row));
    const logger = createLogger('banking-test', 'silent');
    const k1 = key('k1');
    const first = new TokenCipher(k1);
    expect(await resealTokens({ db: db.appDb, tokens: first, logger })).toBe(2);
    const stored = await db.adminDb('plaid_items').orderBy('item_id').select('item_id', 'access_token', 'access_token_key_id');
    expect(stored.map((r) => r.access_token_key_id)).toEqual(['k1', 'k1']);
    expect(JSON.stringify(stored)).not.toContain(TOKEN);
    expect(stored.map((r) => first.open(r, r.item_id))).toEqual([`${TOKEN}-0`, `${TOKEN}-1`]);
    expect(await resealTokens({ db: db.appDb, tokens: first, logger })).toBe(0);

    const rotated = new TokenCipher(`${key('k2')},${k1}`);
    expect(await resealTokens({ db: db.appDb, tokens: rotated, logger })).toBe(2);
    const moved = await db.adminDb('plaid_items').orderBy('item_id').select('item_id', 'access_token', 'access_token_key_id');
    expect(moved.map((r) => r.access_token_key_id)).toEqual(['k2', 'k2']);
    expect(moved.map((r) => rotated.open(r, r.item_id))).toEqual([`${TOKEN}-0`, `${TOKEN}-1`]);
    // The retired key alone no longer opens them.
    expect(() => new TokenCipher(k1).open(moved[0]!, moved[0]!.item_id)).toThrow(/key k2/);
  });
});
