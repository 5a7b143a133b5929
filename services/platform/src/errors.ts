import { create } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { ErrorInfoSchema, FieldViolationSchema } from '@ledgerline/proto/common/v1/error_pb';

/**
 * The closed set of error kinds a service raises. Each maps to exactly one Connect code here; the
 * gateway maps Connect codes to HTTP in one place. `appErrorCode` is the stable code clients read.
 */
export const ErrorKind = {
  InvalidInput: 'INVALID_INPUT',
  Unauthenticated: 'UNAUTHENTICATED',
  PermissionDenied: 'PERMISSION_DENIED',
  NotFound: 'NOT_FOUND',
  Conflict: 'CONFLICT',
  FailedPrecondition: 'FAILED_PRECONDITION',
  RateLimited: 'RATE_LIMITED',
  Unavailable: 'UNAVAILABLE',
  Internal: 'INTERNAL',
} as const;
export type ErrorKind = (typeof ErrorKind)[keyof typeof ErrorKind];

export interface FieldError {
  field: string;
  message: string;
}

export const GENERIC_ERROR_MESSAGE = 'Something went wrong';

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly options: { appErrorCode?: string; fields?: FieldError[]; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
  }

  get appErrorCode(): string {
    return this.options.appErrorCode ?? this.kind;
  }

  get fields(): FieldError[] {
    return this.options.fields ?? [];
  }

  /** Bad input: the message is the first field's message, so clients that read only `message` still see it. */
  static invalid(fields: FieldError[], appErrorCode = ErrorKind.InvalidInput): AppError {
    return new AppError(ErrorKind.InvalidInput, fields[0]?.message ?? 'Invalid input', { fields, appErrorCode });
  }

  static notFound(what: string): AppError {
    return new AppError(ErrorKind.NotFound, `${what} not found`);
  }
}

const CONNECT_CODE: Record<ErrorKind, Code> = {
  INVALID_INPUT: Code.InvalidArgument,
  UNAUTHENTICATED: Code.Unauthenticated,
  PERMISSION_DENIED: Code.PermissionDenied,
  NOT_FOUND: Code.NotFound,
  CONFLICT: Code.AlreadyExists,
  FAILED_PRECONDITION: Code.FailedPrecondition,
  RATE_LIMITED: Code.ResourceExhausted,
  UNAVAILABLE: Code.Unavailable,
  INTERNAL: Code.Internal,
};

/** The one mapping from service errors to Connect errors. Unknown errors never leak their text. */
export function toConnectError(err: unknown): ConnectError {
  if (err instanceof AppError) {
    const info = create(ErrorInfoSchema, {
      appErrorCode: err.appErrorCode,
      fieldViolations: err.fields.map((f) => create(FieldViolationSchema, f)),
    });
    return new ConnectError(err.message, CONNECT_CODE[err.kind], undefined, [{ desc: ErrorInfoSchema, value: info }]);
  }
  if (err instanceof ConnectError) return err;
  return new ConnectError(GENERIC_ERROR_MESSAGE, Code.Internal, undefined, [
    { desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { appErrorCode: ErrorKind.Internal }) },
  ]);
}

/** Reads the structured detail back from a Connect error (client side). */
export function errorInfoOf(err: ConnectError): { appErrorCode: string; fields: FieldError[] } | undefined {
  const [info] = err.findDetails(ErrorInfoSchema);
  if (!info) return undefined;
  return { appErrorCode: info.appErrorCode, fields: info.fieldViolations.map((v) => ({ field: v.field, message: v.message })) };
}
