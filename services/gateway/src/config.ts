import { baseConfigSchema, GATEWAY, loadConfig, localUrl, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

const positiveInt = z.coerce.number().int().positive();

/** An unset variable and an empty one mean the same: not configured. */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const commaList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    );

/**
 * TRUST_PROXY: `false` (default; the peer address is the client), `true` (trust every hop), a number
 * of hops, or a comma list of addresses/CIDRs. Behind an ingress, set it so the rate limiter keys on
 * the client's address rather than the proxy's.
 */
const trustProxySchema = z
  .string()
  .default('false')
  .transform((v): boolean | string[] | ((address: string, hop: number) => boolean) => {
    const s = v.trim();
    if (s === 'true') return true;
    if (s === 'false' || s === '') return false;
    if (/^\d+$/.test(s)) {
      const hops = Number(s);
      return (_address, hop) => hop < hops;
    }
    return s
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
  });

export const gatewayConfigSchema = baseConfigSchema.extend({
  GATEWAY_PORT: portSchema.default(GATEWAY.port),
  /** Each upstream service's URL; the defaults are the registry's ports (services/platform/src/kit/registry.ts). */
  IDENTITY_URL: z.url().default(localUrl('identity')),
  /** Deadline of each identity call: a stuck or stopped identity answers 503 well within 2 s. */
  IDENTITY_TIMEOUT_MS: positiveInt.default(1500),
  /** The banking and ledger services (issues #3 and #4); same deadline rule as identity. */
  BANKING_URL: z.url().default(localUrl('banking')),
  LEDGER_URL: z.url().default(localUrl('ledger')),
  /** The reporting service (issue #5); same deadline rule. */
  REPORTING_URL: z.url().default(localUrl('reporting')),
  /** The firm service (services/firm); same deadline rule. */
  FIRM_URL: z.url().default(localUrl('firm')),
  /** The parties service (services/parties); same deadline rule. */
  PARTIES_URL: z.url().default(localUrl('parties')),
  /** The documents service (services/documents); same deadline rule. */
  DOCUMENTS_URL: z.url().default(localUrl('documents')),
  /** The integrations service (services/integrations); same deadline rule. */
  INTEGRATIONS_URL: z.url().default(localUrl('integrations')),
  /** The notifications service (services/notifications); same deadline rule. */
  NOTIFICATIONS_URL: z.url().default(localUrl('notifications')),
  /** The billing service (services/billing); same deadline rule. */
  BILLING_URL: z.url().default(localUrl('billing')),
  SERVICE_TIMEOUT_MS: positiveInt.default(3000),
  /** A comment line on each open notification stream this often, so proxies keep the idle connection (decision 0040). */
  NOTIFICATIONS_HEARTBEAT_MS: positiveInt.default(25_000),
  /** Origins of the shell allowed by CORS (comma list). */
  CORS_ORIGINS: commaList('http://localhost:3000'),
  /** Shared rate-limit counters across replicas; in-memory counters when unset. */
  REDIS_URL: optionalString,
  /** Every route, per client IP and route, per window. */
  RATE_LIMIT_GLOBAL_MAX: positiveInt.default(600),
  /** /login, /login-oauth, /signup-oauth, per client IP and route, per window. */
  RATE_LIMIT_LOGIN_MAX: positiveInt.default(20),
  /** /signup, /authenticate-otp, /resend-otp, /forgot-password, /reset-password, per IP and route, per window. */
  RATE_LIMIT_CODE_MAX: positiveInt.default(10),
  RATE_LIMIT_WINDOW_MS: positiveInt.default(60_000),
  /** How long a resolved bearer token is reused without asking identity again. */
  /** Report answers kept to send again when reporting confirms (etag) they are unchanged; 0: off. */
  REPORT_ANSWER_CACHE_ENTRIES: z.coerce.number().int().min(0).default(500),
  TRUST_PROXY: trustProxySchema,
  /**
   * When the routes' validators and response serializers are compiled: `eager` at start (a broken schema stops
   * the start), `lazy` on each route's first use (starts in a fraction of the time). Unset: eager in production,
   * lazy elsewhere (development, tests).
   */
  GATEWAY_SCHEMA_COMPILE: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.enum(['eager', 'lazy']).optional()),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

/** Reads the gateway's settings from the environment (or the given object), refusing bad values. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig(gatewayConfigSchema, env);
}
