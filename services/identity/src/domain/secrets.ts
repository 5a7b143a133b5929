import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's minimum (m = 19 MiB, t = 2, p = 1). Hashes made with weaker parameters are
 * upgraded at the next successful sign-in (RELIABILITY 15).
 */
export const ARGON2_PARAMS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export async function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, ARGON2_PARAMS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await argon2Verify(stored, password);
  } catch {
    return false;
  }
}

/** True when a stored hash is not argon2id or uses less memory/time than we require now. */
export function needsRehash(stored: string): boolean {
  const m = /^\$argon2id\$v=\d+\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
  if (!m) return true;
  return Number(m[1]) < ARGON2_PARAMS.memoryCost || Number(m[2]) < ARGON2_PARAMS.timeCost;
}

// Verified against when the email is unknown, so both answers take about the same time (RELIABILITY 18).
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword('dummy-password-for-timing-Aa1');
  await verifyPassword(await dummyHash, password);
}

/** 256 random bits, URL-safe: session tokens and reset tokens. Only their SHA-256 is stored. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A 6-digit code from the CSPRNG (uniform over 000000–999999). */
export function newOneTimeCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** HMAC with a server-side pepper and the method id, so a leaked table row does not give away its code. */
export function codeHash(pepper: string, methodId: string, code: string): Buffer {
  return createHmac('sha256', pepper).update(`${methodId}:${code}`).digest();
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** For the support widget's identity verification (HMAC of the user id). */
export function supportHash(secret: string, userId: string): string {
  return createHmac('sha256', secret).update(userId).digest('hex');
}

/** A device token as this service mints them (43 URL-safe characters); anything else is ignored. */
export function isDeviceToken(token: string | undefined): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token);
}

/**
 * The session token answered to a sign-up whose email already has an account: it looks like any other
 * token (32 random-looking bytes), but its second half is an HMAC of its first, so this service alone
 * can tell it from a real one.
 */
export function decoyToken(pepper: string): string {
  const head = randomBytes(16);
  const tail = createHmac('sha256', pepper).update(head).update('decoy').digest().subarray(0, 16);
  return Buffer.concat([head, tail]).toString('base64url');
}

export function isDecoyToken(pepper: string, token: string | undefined): boolean {
  if (!isDeviceToken(token)) return false;
  const raw = Buffer.from(token, 'base64url');
  if (raw.length !== 32) return false;
  const expected = createHmac('sha256', pepper).update(raw.subarray(0, 16)).update('decoy').digest().subarray(0, 16);
  return timingSafeEqual(raw.subarray(16), expected);
}
