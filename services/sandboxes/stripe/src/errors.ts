// Stripe's error answers: `{ error: { type, code?, message, param?, doc_url? } }` with Stripe's status codes
// (400 invalid request, 401 authentication, 402 card, 404 missing resource, 405, 409 idempotency, 429 rate).

export type StripeErrorType = 'invalid_request_error' | 'api_error' | 'card_error' | 'idempotency_error';

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }

  body(): { error: Record<string, string> } {
    const error: Record<string, string> = { type: this.type, message: this.message };
    if (this.code) {
      error.code = this.code;
      error.doc_url = `https://stripe.com/docs/error-codes/${this.code.replace(/_/g, '-')}`;
    }
    if (this.param) error.param = this.param;
    return { error };
  }
}

/** OAuth endpoints answer in OAuth's shape: `{ error, error_description }`. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(description);
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

export const stripeErrors = {
  missingKey: () =>
    new StripeApiError(
      401,
      'invalid_request_error',
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    ),
  invalidKey: (key: string) =>
    new StripeApiError(
      401,
      'invalid_request_error',
      `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
      'api_key_invalid',
    ),
  noSuchAccount: (id: string) =>
    new StripeApiError(
      403,
      'invalid_request_error',
      `The provided key does not have access to account '${id}' (or that account does not exist). Application access may have been revoked.`,
      'account_invalid',
    ),
  unrecognizedUrl: (method: string, path: string) =>
    new StripeApiError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    ),
  noSuch: (kind: string, id: string, param?: string) =>
    new StripeApiError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', param ?? 'id'),
  invalidParam: (param: string, message: string) => new StripeApiError(400, 'invalid_request_error', message, 'parameter_invalid_integer', param),
  invalidValue: (param: string, message: string) => new StripeApiError(400, 'invalid_request_error', message, 'parameter_invalid_empty', param),
  unknownParam: (param: string) => new StripeApiError(400, 'invalid_request_error', `Received unknown parameter: ${param}`, 'parameter_unknown', param),
  missingParam: (param: string) => new StripeApiError(400, 'invalid_request_error', `Missing required param: ${param}.`, 'parameter_missing', param),
  idempotencyMismatch: (key: string) =>
    new StripeApiError(
      400,
      'idempotency_error',
      `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    ),
  internal: () => new StripeApiError(500, 'api_error', 'An unknown error occurred'),
  rateLimited: () => new StripeApiError(429, 'invalid_request_error', 'Request rate limit exceeded.', 'rate_limit'),
};
