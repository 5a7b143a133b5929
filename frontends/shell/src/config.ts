/**
 * How the browser links banks. `sandbox` (development and tests): the shell lists the local Plaid sandbox's
 * institutions and completes Link through the sandbox's `/ledgerline/link/complete`. `production`: Plaid
 * Link from cdn.plaid.com with the link token; `env` is Plaid's environment name, for the record only
 * (the link token decides where Link runs).
 */
export type PlaidWebConfig = { mode: 'sandbox'; sandboxUrl: string } | { mode: 'production'; env?: string };

/**
 * The remotes the shell loads pages from (frontends/<name>), as in the registry's REMOTES
 * (services/platform/src/kit/registry.ts; scripts/test/registry.test.ts holds the two alike).
 */
import { REMOTE_NAMES, type RemoteName } from './remote-names';

export { REMOTE_NAMES, type RemoteName };

/** Served at /config.json by the web server, so one build runs against any gateway and remote URLs. */
export interface RuntimeConfig {
  apiUrl: string;
  remotes: Record<RemoteName, string>;
  /** Null when the server configured no bank linking: the connect page says so instead of failing. */
  plaid: PlaidWebConfig | null;
  /** "Continue with Google": the OAuth client id and the authorization endpoint; null shows no Google button. */
  google: GoogleWebConfig | null;
}

export interface GoogleWebConfig {
  clientId: string;
  authorizationUrl: string;
}

function parseGoogle(value: unknown): GoogleWebConfig | null {
  if (value === undefined || value === null) return null;
  if (isRecord(value) && typeof value.clientId === 'string' && value.clientId !== '' && typeof value.authorizationUrl === 'string') {
    try {
      return { clientId: value.clientId, authorizationUrl: new URL(value.authorizationUrl).toString() };
    } catch {
      // fall through to the error below
    }
  }
  throw new Error('config.json google must be { "clientId": string, "authorizationUrl": an absolute URL }');
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function parsePlaid(value: unknown): PlaidWebConfig | null {
  if (value === undefined || value === null) return null;
  if (isRecord(value) && value.mode === 'sandbox' && typeof value.sandboxUrl === 'string' && value.sandboxUrl !== '') {
    return { mode: 'sandbox', sandboxUrl: value.sandboxUrl.replace(/\/+$/, '') };
  }
  if (isRecord(value) && value.mode === 'production' && (value.env === undefined || typeof value.env === 'string')) {
    return typeof value.env === 'string' ? { mode: 'production', env: value.env } : { mode: 'production' };
  }
  throw new Error('config.json plaid must be { "mode": "sandbox", "sandboxUrl": string } or { "mode": "production", "env"?: string }');
}

export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  const remotes = isRecord(value) && isRecord(value.remotes) ? value.remotes : null;
  if (!isRecord(value) || typeof value.apiUrl !== 'string' || remotes === null || !REMOTE_NAMES.every((name) => typeof remotes[name] === 'string')) {
    throw new Error(`config.json must be { "apiUrl": string, "remotes": { ${REMOTE_NAMES.map((name) => `"${name}": string`).join(', ')} }, "plaid"?: {...} }`);
  }
  return {
    apiUrl: value.apiUrl,
    remotes: Object.fromEntries(REMOTE_NAMES.map((name) => [name, remotes[name] as string])) as Record<RemoteName, string>,
    plaid: parsePlaid(value.plaid),
    google: parseGoogle(value.google),
  };
}

export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`config.json answered ${response.status}`);
  return parseRuntimeConfig(await response.json());
}
