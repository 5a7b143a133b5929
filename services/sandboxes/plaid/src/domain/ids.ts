// Identifiers in Plaid's shapes: item and account ids are 37 base62 characters; tokens are
// `<kind>-sandbox-<uuid>`; request ids are 15 base62 characters.
import { randomBytes, randomUUID } from 'node:crypto';
import { hashString, mix } from './prng.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      // 248 = 4 × 62: rejecting the rest keeps every character equally likely.
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

/** `length` base62 characters derived from `seed` (deterministic). */
export function derivedBase62(seed: number, length: number): string {
  let out = '';
  let h = seed >>> 0;
  for (let i = 0; i < length; i++) {
    h = mix(h, i + 1);
    out += BASE62[h % 62];
  }
  return out;
}

export const newItemId = (): string => randomBase62(37);
export const newAccountId = (): string => randomBase62(37);
export const newRequestId = (): string => randomBase62(15);
export const newToken = (kind: 'link' | 'public' | 'access'): string => `${kind}-sandbox-${randomUUID()}`;

// Generated transaction ids carry their history index so a base transaction can be found again without
// keeping 100,000 ids in memory: prefix (25, per item) + 6 base62 digits of a keyed bijection of the index +
// 6 check characters. Ids of transactions added later are random and kept in a map.
const ODD = 0x2c1b3c6d;
const ODD_INVERSE = inverseOdd(ODD);

function inverseOdd(a: number): number {
  let x = a;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x));
  return x >>> 0;
}

function encode62(value: number, width: number): string {
  let v = value;
  let out = '';
  for (let i = 0; i < width; i++) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

function decode62(text: string): number | undefined {
  let v = 0;
  for (const ch of text) {
    const d = BASE62.indexOf(ch);
    if (d < 0) return undefined;
    v = v * 62 + d;
  }
  return v;
}

export class TransactionIdCodec {
  readonly prefix: string;
  private readonly key: number;

  constructor(itemId: string) {
    this.key = hashString(`txn:${itemId}`);
    this.prefix = derivedBase62(this.key, 25);
  }

  encode(index: number): string {
    const scrambled = Math.imul((index ^ this.key) >>> 0, ODD) >>> 0;
    return this.prefix + encode62(scrambled, 6) + derivedBase62(mix(this.key, index), 6);
  }

  decode(id: string): number | undefined {
    if (id.length !== 37 || !id.startsWith(this.prefix)) return undefined;
    const scrambled = decode62(id.slice(25, 31));
    if (scrambled === undefined || scrambled > 0xffffffff) return undefined;
    const index = ((Math.imul(scrambled, ODD_INVERSE) >>> 0) ^ this.key) >>> 0;
    return this.encode(index) === id ? index : undefined;
  }
}
