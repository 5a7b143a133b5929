import { Configuration, PlaidApi, PlaidEnvironments } from 'plaid';

export type PlaidClient = PlaidApi;

/** The official SDK, pointed at Plaid or at the local sandbox by base URL. */
export function createPlaidClient(options: { baseUrl: string; clientId: string; secret: string; timeoutMs: number }): PlaidClient {
  const basePath = options.baseUrl.replace(/\/+$/, '') || PlaidEnvironments.sandbox;
  return new PlaidApi(
    new Configuration({
      basePath,
      baseOptions: { timeout: options.timeoutMs, headers: { 'PLAID-CLIENT-ID': options.clientId, 'PLAID-SECRET': options.secret } },
    }),
  );
}

/** Plaid's error body (https://plaid.com/docs/errors/), when the failure was an API answer. */
export interface PlaidErrorBody {
  error_type: string;
  error_code: string;
  error_message: string;
}

export function plaidErrorOf(err: unknown): PlaidErrorBody | undefined {
  const data = (err as { response?: { data?: unknown } } | null)?.response?.data;
  if (data && typeof data === 'object' && typeof (data as PlaidErrorBody).error_code === 'string') return data as PlaidErrorBody;
  return undefined;
}

/** Errors that need the user to sign in to the bank again: retrying cannot help. */
const RELOGIN_CODES = new Set(['ITEM_LOGIN_REQUIRED', 'PENDING_EXPIRATION', 'ACCESS_NOT_GRANTED', 'INVALID_CREDENTIALS', 'INVALID_MFA', 'USER_SETUP_REQUIRED']);

export function needsRelogin(err: unknown): boolean {
  const body = plaidErrorOf(err);
  return body !== undefined && RELOGIN_CODES.has(body.error_code);
}

/** Plaid's answer when data changed while paging: restart from the last saved cursor. */
export function isMutationDuringPagination(err: unknown): boolean {
  return plaidErrorOf(err)?.error_code === 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION';
}

/** Errors of our request or of the item that no retry fixes (bad access token, item removed...). */
export function isPermanent(err: unknown): boolean {
  const body = plaidErrorOf(err);
  if (!body) return false;
  return body.error_type === 'INVALID_REQUEST' || body.error_type === 'INVALID_INPUT' || body.error_code === 'ITEM_NOT_FOUND';
}
