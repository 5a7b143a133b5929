// Plaid's error format: HTTP 400 (or the listed status) with
// { error_type, error_code, error_message, display_message, request_id, ... }.
// Messages are Plaid's own wording where Plaid documents it.
import type { PlaidErrorBody } from './domain/wire.js';

export class PlaidApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorType: string,
    readonly errorCode: string,
    readonly errorMessage: string,
    readonly displayMessage: string | null = null,
  ) {
    super(`${errorCode}: ${errorMessage}`);
  }

  body(requestId: string): PlaidErrorBody {
    return {
      display_message: this.displayMessage,
      documentation_url: `https://plaid.com/docs/errors/${docsSection(this.errorType)}/#${this.errorCode.toLowerCase()}`,
      error_code: this.errorCode,
      error_message: this.errorMessage,
      error_type: this.errorType,
      request_id: requestId,
      suggested_action: null,
    };
  }
}

function docsSection(errorType: string): string {
  switch (errorType) {
    case 'ITEM_ERROR':
      return 'item';
    case 'TRANSACTIONS_ERROR':
      return 'transactions';
    case 'INVALID_REQUEST':
      return 'invalid-request';
    case 'INVALID_INPUT':
      return 'invalid-input';
    case 'API_ERROR':
      return 'api';
    case 'RATE_LIMIT_EXCEEDED':
      return 'rate-limit-exceeded';
    case 'INSTITUTION_ERROR':
      return 'institution';
    case 'SANDBOX_ERROR':
      return 'sandbox';
    default:
      return '';
  }
}

export const ITEM_LOGIN_REQUIRED_MESSAGE =
  "the login details of this item have changed (credentials, MFA, or required user action) and a user login is required to update this information. use Link's update mode to restore the item to a good state";

export const plaidErrors = {
  invalidApiKeys: () => new PlaidApiError(400, 'INVALID_INPUT', 'INVALID_API_KEYS', 'invalid client_id or secret provided'),
  missingFields: (fields: readonly string[]) =>
    new PlaidApiError(400, 'INVALID_REQUEST', 'MISSING_FIELDS', `the following required fields are missing: ${fields.join(', ')}`),
  invalidField: (message: string) => new PlaidApiError(400, 'INVALID_REQUEST', 'INVALID_FIELD', message),
  invalidBody: () => new PlaidApiError(400, 'INVALID_REQUEST', 'INVALID_BODY', 'body could not be parsed as JSON'),
  notFound: () => new PlaidApiError(404, 'INVALID_REQUEST', 'NOT_FOUND', 'not found'),
  invalidAccessToken: () =>
    new PlaidApiError(
      400,
      'INVALID_INPUT',
      'INVALID_ACCESS_TOKEN',
      'provided access token is in an invalid format. expected format: access-<environment>-<identifier>',
    ),
  itemNotFound: () =>
    new PlaidApiError(
      400,
      'ITEM_ERROR',
      'ITEM_NOT_FOUND',
      'The Item you requested cannot be found. This Item does not exist, has been previously removed via /item/remove, or has had access removed by the user.',
    ),
  invalidPublicToken: (expired: boolean) =>
    new PlaidApiError(
      400,
      'INVALID_INPUT',
      'INVALID_PUBLIC_TOKEN',
      expired
        ? 'provided public token is expired. Public tokens expire 30 minutes after creation at which point they can no longer be exchanged'
        : 'provided public token is in an invalid format. expected format: public-<environment>-<identifier>',
    ),
  invalidInstitution: () => new PlaidApiError(400, 'INVALID_INPUT', 'INVALID_INSTITUTION', 'invalid institution_id provided'),
  invalidAccountId: () => new PlaidApiError(400, 'INVALID_INPUT', 'INVALID_ACCOUNT_ID', 'one or more of the account IDs is invalid'),
  invalidKeyId: () => new PlaidApiError(400, 'INVALID_INPUT', 'INVALID_WEBHOOK_VERIFICATION_KEY_ID', 'invalid key_id provided'),
  itemLoginRequired: () => new PlaidApiError(400, 'ITEM_ERROR', 'ITEM_LOGIN_REQUIRED', ITEM_LOGIN_REQUIRED_MESSAGE),
  mutationDuringPagination: () =>
    new PlaidApiError(
      400,
      'TRANSACTIONS_ERROR',
      'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION',
      'Underlying transaction data changed since last page was fetched. Please restart pagination from last update.',
    ),
  sandboxWebhookInvalid: () =>
    new PlaidApiError(
      400,
      'SANDBOX_ERROR',
      'SANDBOX_WEBHOOK_INVALID',
      'the webhook for this item is either not set, or is invalid. please update the webhook using /item/webhook/update',
    ),
  internal: () => new PlaidApiError(500, 'API_ERROR', 'INTERNAL_SERVER_ERROR', 'an unexpected error occurred', 'an unexpected error occurred'),
};

/** Errors a test can inject with `failNext({ error: <code> })`. */
export const INJECTABLE_ERRORS: Record<string, () => PlaidApiError> = {
  INTERNAL_SERVER_ERROR: plaidErrors.internal,
  PLANNED_MAINTENANCE: () =>
    new PlaidApiError(
      503,
      'API_ERROR',
      'PLANNED_MAINTENANCE',
      'the Plaid API is temporarily unavailable due to planned maintenance. visit https://status.plaid.com/ for more information',
      'the Plaid API is temporarily unavailable',
    ),
  RATE_LIMIT_EXCEEDED: () =>
    new PlaidApiError(429, 'RATE_LIMIT_EXCEEDED', 'TRANSACTIONS_SYNC_LIMIT', 'rate limit exceeded for attempts to access this item. please try again later'),
  INSTITUTION_NOT_RESPONDING: () =>
    new PlaidApiError(
      400,
      'INSTITUTION_ERROR',
      'INSTITUTION_NOT_RESPONDING',
      'this institution is not currently responding to this request. please try again soon',
      'this institution is not currently responding to this request. please try again soon',
    ),
  INSTITUTION_DOWN: () =>
    new PlaidApiError(
      400,
      'INSTITUTION_ERROR',
      'INSTITUTION_DOWN',
      'this institution is not currently responding to this request. please try again soon',
      'this institution is not currently responding to this request. please try again soon',
    ),
  PRODUCT_NOT_READY: () =>
    new PlaidApiError(
      400,
      'ITEM_ERROR',
      'PRODUCT_NOT_READY',
      'the requested product is not yet ready. please provide a webhook or try the request again later',
    ),
  ITEM_LOGIN_REQUIRED: plaidErrors.itemLoginRequired,
  TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION: plaidErrors.mutationDuringPagination,
};
