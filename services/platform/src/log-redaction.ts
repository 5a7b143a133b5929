// What no log line of any service or the gateway may carry (issue #15 item 4): secrets by field name,
// wherever they sit in the logged object (four levels deep), and provider tokens and bearer tokens inside
// error texts. createLogger applies both; pino's own redaction does the field part (fast-redact, compiled
// once per logger).
import { pino } from 'pino';

/** Field names whose values are censored at any of the first four levels of a logged object. */
export const REDACTED_KEYS = [
  // Provider tokens (Plaid today; Stripe and QuickBooks later use the same names).
  'access_token',
  'accessToken',
  'public_token',
  'publicToken',
  'refresh_token',
  'refreshToken',
  'id_token',
  'idToken',
  // Credentials of people and sessions.
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'newPassword',
  'existingPassword',
  'token',
  'sessionToken',
  'deviceToken',
  'code',
  // Secrets of the system.
  'secret',
  'client_secret',
  'clientSecret',
  'apiKey',
  'api_key',
  'privateKey',
  'private_key',
  'SERVICE_TOKEN_KEY',
  'PLAID_SECRET',
  'PLAID_TOKEN_KEYS',
  'OTP_PEPPER',
  'SUPPORT_HASH_SECRET',
  'DOCUMENTS_S3_SECRET_ACCESS_KEY',
  'secretAccessKey',
] as const;

const DEPTH = 4;

function pathOf(prefix: string, key: string): string {
  const safe = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  if (!prefix) return safe;
  return safe.startsWith('[') ? `${prefix}${safe}` : `${prefix}.${safe}`;
}

/** pino `redact.paths` for REDACTED_KEYS at depths 0 to 3 (`k`, `*.k`, `*.*.k`, `*.*.*.k`). */
export function redactPaths(keys: readonly string[] = REDACTED_KEYS): string[] {
  const paths: string[] = [];
  for (let depth = 0; depth < DEPTH; depth++) {
    const prefix = Array.from({ length: depth }, () => '*').join('.');
    for (const key of keys) paths.push(pathOf(prefix, key));
  }
  return paths;
}

export const REDACTED = '[redacted]';

/** Provider and bearer tokens inside free text (error messages, stacks, URLs). */
const TOKEN_IN_TEXT = [/\b(?:access|public|link|item)-(?:sandbox|development|production)-[A-Za-z0-9-]{8,}/g, /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi];

export function scrubText(text: string): string {
  let out = text;
  for (const re of TOKEN_IN_TEXT) out = out.replace(re, REDACTED);
  return out;
}

/** Error fields of HTTP clients (axios: the request config with its JSON body, the raw request and response). */
const ERROR_FIELDS_DROPPED = new Set(['config', 'request', 'response', 'headers']);

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth > 3 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (ERROR_FIELDS_DROPPED.has(k)) continue;
    out[k] = (REDACTED_KEYS as readonly string[]).includes(k) ? REDACTED : scrubValue(v, depth + 1);
  }
  return out;
}

/** pino's error serializer, then without HTTP clients' request data and with tokens in texts censored. */
export function errorSerializer(err: unknown): unknown {
  if (!(err instanceof Error)) return scrubValue(err, 0);
  return scrubValue(pino.stdSerializers.err(err), 0);
}
