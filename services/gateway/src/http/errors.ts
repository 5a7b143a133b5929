import type { Socket } from 'node:net';
import { Code, ConnectError } from '@connectrpc/connect';
import { errorInfoOf, GENERIC_ERROR_MESSAGE, VIEWER_EDIT_MESSAGE, type FieldError, type Logger } from '@ledgerline/platform';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ruleMessage } from './hardening.js';
import { API_SECURITY_HEADERS, applySecurityHeaders } from './security-headers.js';

/** The one error shape of the REST edge (ARCHITECTURE §4). */
export interface ErrorBody {
  message: string;
  errors?: FieldError[];
  appErrorCode: string;
  statusCode: number;
}

export const SERVICE_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable';
export const SESSION_EXPIRED_MESSAGE = 'Session expired';
export const RATE_LIMITED_MESSAGE = 'Too many requests, please try again later.';

/** An error the gateway raises itself (auth, workspace, role, rate limit, validation). */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly appErrorCode: string,
    message: string,
    readonly fields: FieldError[] = [],
  ) {
    super(message);
  }

  static invalid(fields: FieldError[]): HttpError {
    return new HttpError(400, 'INVALID_INPUT', fields[0]?.message ?? 'Invalid input', fields);
  }

  static sessionExpired(): HttpError {
    return new HttpError(401, 'SESSION_EXPIRED', SESSION_EXPIRED_MESSAGE);
  }

  static forbidden(): HttpError {
    return new HttpError(403, 'FORBIDDEN', VIEWER_EDIT_MESSAGE);
  }

  static notFound(message: string): HttpError {
    return new HttpError(404, 'NOT_FOUND', message);
  }

  static rateLimited(): HttpError {
    return new HttpError(429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE);
  }
}

interface CodeMapping {
  status: number;
  /** appErrorCode when the service sent no ErrorInfo detail. */
  appErrorCode: string;
}

/**
 * THE mapping from Connect codes to HTTP statuses; nothing else in the gateway decides a status for
 * a service error.
 *
 * - FailedPrecondition → 409: the request is well formed but conflicts with the current state of the
 *   resource (e.g. a finalized transaction); the client must change that state first. AlreadyExists is
 *   409 too; `appErrorCode` tells them apart.
 * - Unavailable, DeadlineExceeded and Canceled → 503: the downstream service is down or too slow;
 *   the user gets a quick 503 instead of a hang.
 * - Aborted → 409 when a service raised it on purpose (it carries ErrorInfo), else 503: connect-node
 *   reports a connection reset by a dying service as Aborted.
 * - Internal, Unknown, DataLoss, Unimplemented → 500 'Something went wrong' (logged, never echoed).
 */
const CONNECT_TO_HTTP: Record<Code, CodeMapping> = {
  [Code.Canceled]: { status: 503, appErrorCode: 'SERVICE_UNAVAILABLE' },
  [Code.Unknown]: { status: 500, appErrorCode: 'INTERNAL' },
  [Code.InvalidArgument]: { status: 400, appErrorCode: 'INVALID_INPUT' },
  [Code.DeadlineExceeded]: { status: 503, appErrorCode: 'SERVICE_UNAVAILABLE' },
  [Code.NotFound]: { status: 404, appErrorCode: 'NOT_FOUND' },
  [Code.AlreadyExists]: { status: 409, appErrorCode: 'CONFLICT' },
  [Code.PermissionDenied]: { status: 403, appErrorCode: 'FORBIDDEN' },
  [Code.ResourceExhausted]: { status: 429, appErrorCode: 'RATE_LIMITED' },
  [Code.FailedPrecondition]: { status: 409, appErrorCode: 'FAILED_PRECONDITION' },
  [Code.Aborted]: { status: 409, appErrorCode: 'CONFLICT' },
  [Code.OutOfRange]: { status: 400, appErrorCode: 'INVALID_INPUT' },
  [Code.Unimplemented]: { status: 500, appErrorCode: 'INTERNAL' },
  [Code.Internal]: { status: 500, appErrorCode: 'INTERNAL' },
  [Code.Unavailable]: { status: 503, appErrorCode: 'SERVICE_UNAVAILABLE' },
  [Code.DataLoss]: { status: 500, appErrorCode: 'INTERNAL' },
  [Code.Unauthenticated]: { status: 401, appErrorCode: 'UNAUTHENTICATED' },
};

/** The REST error for a Connect error from a downstream service. */
export function connectErrorToBody(err: ConnectError): ErrorBody {
  const info = errorInfoOf(err);
  const mapping = CONNECT_TO_HTTP[err.code] ?? CONNECT_TO_HTTP[Code.Unknown];
  const { appErrorCode } = mapping;
  const status = err.code === Code.Aborted && !info ? 503 : mapping.status;
  if (status >= 500) {
    // The service chose to say it is unavailable (ErrorInfo present): its message is meant for users.
    if (status === 503 && info)
      return { message: err.rawMessage || SERVICE_UNAVAILABLE_MESSAGE, appErrorCode: info.appErrorCode || 'SERVICE_UNAVAILABLE', statusCode: 503 };
    if (status === 503) return { message: SERVICE_UNAVAILABLE_MESSAGE, appErrorCode: 'SERVICE_UNAVAILABLE', statusCode: 503 };
    return { message: GENERIC_ERROR_MESSAGE, appErrorCode: info?.appErrorCode || appErrorCode, statusCode: 500 };
  }
  const fields = info?.fields ?? [];
  const body: ErrorBody = {
    message: fields[0]?.message ?? (err.rawMessage || GENERIC_ERROR_MESSAGE),
    appErrorCode: info?.appErrorCode || appErrorCode,
    statusCode: status,
  };
  if (fields.length > 0) body.errors = fields;
  return body;
}

interface AjvLikeError {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: { missingProperty?: unknown } & Record<string, unknown>;
}

/** Field name of an ajv error, as the client named it: `email`, `profile.city`, `x-workspace-id`. */
function fieldOf(error: AjvLikeError, context: string): string {
  const path = (error.instancePath ?? '')
    .replace(/^\/(body|querystring|params|headers)(?=\/|$)/, '')
    .split('/')
    .filter((p) => p !== '')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const missing = error.params?.missingProperty;
  if (typeof missing === 'string') path.push(missing);
  return path.length > 0 ? path.join('.') : context;
}

/** Schema (ajv) errors as field errors: `{ field: 'email', message: 'email must be string' }`. */
export function validationFields(errors: readonly AjvLikeError[], context: string): FieldError[] {
  return errors.map((e) => {
    const field = fieldOf(e, context);
    const message = e.keyword === 'required' ? `${field} is required` : (ruleMessage(field, e.keyword, e.params) ?? `${field} ${e.message ?? 'is invalid'}`);
    return { field, message };
  });
}

function isFastifyError(err: unknown): err is FastifyError {
  return err instanceof Error && typeof (err as { statusCode?: unknown }).statusCode === 'number';
}

const STATUS_CODES: Record<number, string> = {
  400: 'INVALID_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  431: 'HEADERS_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Fastify's texts that would echo the request (the whole path) replaced by fixed ones. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is not validly encoded',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long',
  FST_ERR_ASYNC_CONSTRAINT: 'Route not found',
};

export interface MappedError {
  body: ErrorBody;
  /** True when the error was not foreseen (a bug or a broken dependency): log it at error level. */
  unexpected: boolean;
}

/** Any error thrown while serving a request → the REST error shape. */
export function toErrorBody(err: unknown): MappedError {
  if (err instanceof HttpError) {
    const body: ErrorBody = { message: err.message, appErrorCode: err.appErrorCode, statusCode: err.statusCode };
    if (err.fields.length > 0) body.errors = err.fields;
    return { body, unexpected: false };
  }
  if (err instanceof ConnectError) {
    const body = connectErrorToBody(err);
    return { body, unexpected: body.statusCode === 500 };
  }
  if (isFastifyError(err) && err.validation) {
    const fields = validationFields(err.validation, err.validationContext ?? 'body');
    const body = HttpError.invalid(fields);
    return { body: { message: body.message, errors: fields, appErrorCode: body.appErrorCode, statusCode: 400 }, unexpected: false };
  }
  if (isFastifyError(err) && err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    // Framework errors: malformed JSON, wrong content type, body too large. Their messages are fixed
    // texts from fastify, except JSON.parse's, which we replace.
    const message = err instanceof SyntaxError ? 'Request body is not valid JSON' : (FRAMEWORK_MESSAGES[err.code] ?? err.message);
    return { body: { message, appErrorCode: STATUS_CODES[err.statusCode] ?? 'INVALID_INPUT', statusCode: err.statusCode }, unexpected: false };
  }
  return { body: { message: GENERIC_ERROR_MESSAGE, appErrorCode: 'INTERNAL', statusCode: 500 }, unexpected: true };
}

/** Installs the error handler and the not-found handler: every error leaves in the same shape. */
export function registerErrorHandling(app: FastifyInstance, logger: Logger, notFoundPreHandler?: preHandlerAsyncHookHandler): void {
  app.setErrorHandler((err: unknown, req, reply) => {
    const { body, unexpected } = toErrorBody(err);
    if (unexpected) {
      // The mixin of the platform logger adds trace_id; reqId ties it to the x-request-id header.
      logger.error({ err, reqId: req.id, route: req.routeOptions.url, method: req.method }, 'request failed');
    } else if (body.statusCode >= 500) {
      logger.warn(
        { reqId: req.id, route: req.routeOptions.url, code: body.appErrorCode, err: err instanceof Error ? err.message : String(err) },
        'downstream unavailable',
      );
    } else {
      req.log.debug({ statusCode: body.statusCode, appErrorCode: body.appErrorCode }, 'request refused');
    }
    return reply.code(body.statusCode).type('application/json; charset=utf-8').send(body);
  });

  app.setNotFoundHandler({ preHandler: notFoundPreHandler }, (_req, reply) => {
    applySecurityHeaders(reply);
    const body: ErrorBody = { message: 'Route not found', appErrorCode: 'NOT_FOUND', statusCode: 404 };
    return reply.code(404).send(body);
  });
}

/**
 * Fastify's `frameworkErrors`: errors it meets before routing (a path that is not validly
 * percent-encoded, a path parameter over maxParamLength) leave in the one error shape too, with the
 * security headers (no route hooks run for them).
 */
export function frameworkErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const { body } = toErrorBody(err);
  applySecurityHeaders(reply);
  reply.header('x-request-id', req.id);
  void reply.code(body.statusCode).type('application/json; charset=utf-8').send(body);
}

/**
 * Node's `clientError` (a request the HTTP parser refuses: headers over the limit, a malformed request
 * line): answered on the raw socket in the one error shape, or the connection is closed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({
    message: status === 431 ? 'Request headers are too large' : status === 408 ? 'Request timed out' : 'Malformed request',
    appErrorCode: STATUS_CODES[status] ?? 'INVALID_INPUT',
    statusCode: status,
  } satisfies ErrorBody);
  if (!socket.writable) {
    socket.destroy(err);
    return;
  }
  const headers = Object.entries({
    ...API_SECURITY_HEADERS,
    'cache-control': 'no-store',
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n${headers}\r\n\r\n${body}`,
  );
}
