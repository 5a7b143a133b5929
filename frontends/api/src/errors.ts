export const GENERIC_ERROR_MESSAGE = 'Something went wrong';
export const SESSION_EXPIRED_MESSAGE = 'Session expired';

export interface ApiErrorInit {
  message: string;
  statusCode: number;
  appErrorCode?: string | undefined;
  field?: string | undefined;
}

/** A failed call, reduced to what the screens show (spec §8). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly statusCode: number;
  readonly appErrorCode: string | undefined;
  /** The field named by the first server error, when the server named one. */
  readonly field: string | undefined;
  /** True when the session handling already told the user (forced logout on a 401): screens stay quiet. */
  handled = false;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.statusCode = init.statusCode;
    this.appErrorCode = init.appErrorCode;
    this.field = init.field;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * Spec §8: the first entry of `errors` wins, else `message`; appErrorCode and the HTTP status are read too;
 * anything else is 'Something went wrong' with code 500.
 */
export function extractError(httpStatus: number | undefined, body: unknown): ApiError {
  if (!isRecord(body)) return new ApiError({ message: GENERIC_ERROR_MESSAGE, statusCode: 500 });
  const appErrorCode = body.appErrorCode === undefined || body.appErrorCode === null ? undefined : String(body.appErrorCode);
  const statusCode = httpStatus ?? (typeof body.statusCode === 'number' ? body.statusCode : 500);
  const errors = body.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    const first: unknown = errors[0];
    if (isRecord(first) && nonEmptyString(first.message)) {
      return new ApiError({
        message: first.message,
        statusCode,
        appErrorCode,
        field: typeof first.field === 'string' ? first.field : undefined,
      });
    }
  }
  if (nonEmptyString(body.message)) return new ApiError({ message: body.message, statusCode, appErrorCode });
  return new ApiError({ message: GENERIC_ERROR_MESSAGE, statusCode: 500 });
}

/** Any thrown value as an ApiError, so callers have one thing to show. */
export function toApiError(value: unknown): ApiError {
  if (value instanceof ApiError) return value;
  return new ApiError({ message: GENERIC_ERROR_MESSAGE, statusCode: 500 });
}

/** What a screen shows for a failed call, or null when the session handling already showed it. */
export function describeError(value: unknown): { message: string; statusCode: number } | null {
  const error = toApiError(value);
  if (error.handled) return null;
  return { message: error.message, statusCode: error.statusCode };
}
