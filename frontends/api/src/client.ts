import { ApiError, SESSION_EXPIRED_MESSAGE, extractError } from './errors';
import { fileNameFromHeaders } from './file-name';
import { createLedgerSeq, type LedgerSeq } from './seq';
import { fillPath, type Answer, type InitArgs, type Operation, type PathsWith, type TypedCall } from './typed';
import { buildUrl, type QueryParams } from './url';
import type {
  AccountsResponse,
  AuthenticateOtpBody,
  CheckAnomalyResponse,
  JobStatusFilter,
  JobsResponse,
  LinkAccountsBody,
  LinkAccountsResponse,
  LinkTokenResponse,
  RemoveAccountResponse,
  SyncResponse,
  ForgotPasswordBody,
  LoginBody,
  LoginResponse,
  MessageResponse,
  OauthBody,
  OauthResponse,
  OnboardBody,
  OnboardResponse,
  ResendOtpBody,
  ResendOtpResponse,
  ResetPasswordBody,
  ResetPasswordResponse,
  SessionResponse,
  SignUpBody,
  SignUpResponse,
  UpdateCredentialsBody,
  UpdateCredentialsResponse,
  UpdateMeBody,
  UpdatePasswordBody,
  UpdatePasswordResponse,
  User,
} from './types';

export const WORKSPACE_HEADER = 'x-workspace-id';

export interface ApiClientOptions {
  /** The gateway's origin, e.g. http://localhost:4000. */
  baseUrl: string;
  /** The bearer token, or nothing before sign-in. */
  getToken: () => string | null | undefined;
  /** The selected workspace; sent only together with a token. */
  getWorkspaceId: () => string | null | undefined;
  /**
   * Called on every 401 answer (unless the session is already marked expired). Return true when it handled
   * the 401 itself (forced logout and its warning), so the error reaches callers marked as handled.
   */
  onUnauthorized: (error: ApiError) => boolean | void;
  /**
   * Called when the gateway refuses the workspace a call acted in (404 naming `x-workspace-id`: deleted, or the
   * caller's access removed), with that workspace's id. Return true when it told the user itself: the error still
   * reaches the caller, marked as handled, so screens (which may be leaving) stay quiet.
   */
  onWorkspaceLost?: (workspaceId: string, error: ApiError) => boolean | void;
  /** While this returns true every call is refused with 'Session expired' without reaching the server. */
  isSessionExpired?: () => boolean;
  fetch?: typeof fetch;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  query?: QueryParams;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

/** What the typed calls accept at run time (their types are narrower: `typed.ts`). */
interface LooseInit {
  params?: { path?: Readonly<Record<string, string | number>>; query?: object };
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export interface Download {
  blob: Blob;
  fileName: string | undefined;
}

/** A multipart upload (`upload`): its form, and what to hear of the bytes sent (fetch reports no upload progress). */
export interface UploadOptions {
  form: FormData;
  /** Bytes of the request body sent so far, and its whole size, as the browser reports them. */
  onProgress?: (sent: number, total: number) => void;
  /** Sent as the Idempotency-Key header: a retry of the same batch answers the first result. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ApiClient {
  /** The highest ledger commit sequence a change answered, per workspace: report requests carry it. */
  ledgerSeq: LedgerSeq;
  /**
   * The typed calls, one per method: the path is a key of the generated `paths`, and its path parameters
   * (`params.path`), query (`params.query`), body and answer are that operation's, e.g.
   * `client.get('/vendors/{id}', { params: { path: { id } } })` answers a `Vendor`.
   */
  get: TypedCall<'get'>;
  post: TypedCall<'post'>;
  put: TypedCall<'put'>;
  patch: TypedCall<'patch'>;
  delete: TypedCall<'delete'>;
  /** A GET whose answer is a file (CSV, PDF): its `Blob` and the file name from content-disposition. */
  download<P extends PathsWith<'get'>>(path: P, ...init: InitArgs<Operation<'get', P>>): Promise<Download>;
  /** A file at a link the server answered (a receipt's `url`), fetched with the session's headers. */
  downloadLink(href: string, signal?: AbortSignal): Promise<Download>;
  /**
   * POST a multipart form to a path with upload progress: XMLHttpRequest where the browser has it (its upload events
   * are the only source of real progress), fetch elsewhere (no progress). Errors as the typed calls'.
   */
  upload<P extends PathsWith<'post'>>(path: P, options: UploadOptions): Promise<Answer<'post', P>>;
  /**
   * Reads a GET that answers server-sent events (text/event-stream) with the session's headers — the browser's
   * EventSource cannot send them — calling `onEvent` for each event until the stream ends (resolves) or `signal`
   * aborts it. A refused request rejects as the typed calls do (a 401 logs out once).
   */
  eventStream<P extends PathsWith<'get'>>(path: P, onEvent: (event: StreamEvent) => void, signal: AbortSignal): Promise<void>;
  signup(body: SignUpBody): Promise<SignUpResponse>;
  login(body: LoginBody): Promise<LoginResponse>;
  authenticateOtp(body: AuthenticateOtpBody): Promise<SessionResponse>;
  resendOtp(body: ResendOtpBody): Promise<ResendOtpResponse>;
  loginOauth(body: OauthBody): Promise<OauthResponse>;
  signupOauth(body: OauthBody): Promise<OauthResponse>;
  forgotPassword(body: ForgotPasswordBody): Promise<MessageResponse>;
  resetPassword(body: ResetPasswordBody): Promise<ResetPasswordResponse>;
  updateCredentials(body: UpdateCredentialsBody): Promise<UpdateCredentialsResponse>;
  updatePasswordByExistingPassword(body: UpdatePasswordBody): Promise<UpdatePasswordResponse>;
  logout(): Promise<MessageResponse>;
  onboardUser(body: OnboardBody): Promise<OnboardResponse>;
  getMe(signal?: AbortSignal): Promise<User>;
  updateMe(body: UpdateMeBody): Promise<User>;
  // Banking (spec §7 Accounts, Jobs).
  createLinkToken(): Promise<LinkTokenResponse>;
  createUpdateToken(accountId: string): Promise<LinkTokenResponse>;
  linkAccounts(body: LinkAccountsBody): Promise<LinkAccountsResponse>;
  listAccounts(signal?: AbortSignal): Promise<AccountsResponse>;
  removeAccount(id: string): Promise<RemoveAccountResponse>;
  checkAnomaly(accountId?: string, signal?: AbortSignal): Promise<CheckAnomalyResponse>;
  syncTransactions(accountId: string): Promise<SyncResponse>;
  listJobs(filter?: JobsFilter, signal?: AbortSignal): Promise<JobsResponse>;
}

/** One server-sent event: its name (`message` when the server gave none), its id and its data line(s). */
export interface StreamEvent {
  event: string;
  id: string | undefined;
  data: string;
}

export interface JobsFilter {
  accountId?: string;
  /** Sent comma-joined; none means every status. */
  status?: readonly JobStatusFilter[];
}

const sessionExpired = (): ApiError => {
  const error = new ApiError({ message: SESSION_EXPIRED_MESSAGE, statusCode: 401 });
  // The forced logout that set the flag already showed 'Session expired'.
  error.handled = true;
  return error;
};

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // Resolved per call: an unbound window.fetch throws "Illegal invocation".
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  function headers(hasBody: boolean): Headers {
    const result = new Headers({ accept: 'application/json' });
    if (hasBody) result.set('content-type', 'application/json');
    const token = options.getToken();
    if (token) {
      result.set('authorization', `Bearer ${token}`);
      const workspaceId = options.getWorkspaceId();
      if (workspaceId) result.set(WORKSPACE_HEADER, workspaceId);
    }
    return result;
  }

  async function send(method: HttpMethod, path: string, request: RequestOptions): Promise<Response> {
    // Calls of the ended session are refused (spec §4); the forced logout has already cleared the token, so a
    // login right after it (no token yet) goes through rather than failing silently for two seconds.
    if (options.getToken() && options.isSessionExpired?.()) throw sessionExpired();
    const hasBody = request.body !== undefined;
    // A FormData body (file uploads) goes as multipart/form-data: fetch sets the type with its boundary.
    const isForm = typeof FormData !== 'undefined' && request.body instanceof FormData;
    let response: Response;
    const sent = headers(hasBody && !isForm);
    try {
      response = await doFetch(`${baseUrl}${buildUrl(path, request.query)}`, {
        method,
        headers: sent,
        body: isForm ? (request.body as FormData) : hasBody ? JSON.stringify(request.body) : null,
        signal: request.signal ?? null,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw extractError(undefined, undefined);
    }
    if (response.ok) return response;
    throw failure(response.status, await readBody(response), sent);
  }

  /** The error of a refused call, after the session and workspace handling (a 401 logs out once; a lost workspace). */
  function failure(status: number, body: unknown, sent: Headers): ApiError {
    const error = extractError(status, body);
    if (status === 401) {
      // A burst of parallel 401s must log out once, not once per call.
      if (options.isSessionExpired?.()) return sessionExpired();
      if (options.onUnauthorized(error) === true) error.handled = true;
    }
    const workspaceId = sent.get(WORKSPACE_HEADER);
    if (status === 404 && error.field === WORKSPACE_HEADER && workspaceId) {
      if (options.onWorkspaceLost?.(workspaceId, error) === true) error.handled = true;
    }
    return error;
  }

  function upload<T>(path: string, { form, onProgress, idempotencyKey, signal }: UploadOptions): Promise<T> {
    if (options.getToken() && options.isSessionExpired?.()) return Promise.reject(sessionExpired());
    const sent = headers(false);
    if (idempotencyKey) sent.set('idempotency-key', idempotencyKey);
    if (typeof XMLHttpRequest === 'undefined' || options.fetch) {
      return request<T>('POST', path, { body: form, ...(signal ? { signal } : {}) });
    }
    return new Promise<T>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${baseUrl}${path}`);
      sent.forEach((value, key) => xhr.setRequestHeader(key, value));
      if (onProgress) xhr.upload.addEventListener('progress', (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0));
      const abort = () => xhr.abort();
      signal?.addEventListener('abort', abort, { once: true });
      xhr.addEventListener('loadend', () => signal?.removeEventListener('abort', abort));
      xhr.addEventListener('abort', () => reject(new DOMException('The upload was cancelled', 'AbortError')));
      xhr.addEventListener('error', () => reject(extractError(undefined, undefined)));
      xhr.addEventListener('load', () => {
        let body: unknown = undefined;
        if (xhr.responseText !== '') {
          try {
            body = JSON.parse(xhr.responseText) as unknown;
          } catch {
            body = xhr.responseText;
          }
        }
        if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
        else reject(failure(xhr.status, body, sent));
      });
      xhr.send(form);
    });
  }

  async function request<T>(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<T> {
    const response = await send(method, path, opts);
    return (await readBody(response)) as T;
  }

  /** The run-time side of a typed call: fills the path, sends the query and body. */
  const call =
    (method: HttpMethod) =>
    (path: string, init: LooseInit = {}): Promise<never> =>
      request<never>(method, fillPath(path, init.params?.path), {
        query: init.params?.query as QueryParams | undefined,
        body: init.body,
        signal: init.signal,
      });

  async function fetchFile(path: string, init: LooseInit = {}): Promise<Download> {
    const response = await send('GET', fillPath(path, init.params?.path), { query: init.params?.query as QueryParams | undefined, signal: init.signal });
    return { blob: await response.blob(), fileName: fileNameFromHeaders(response.headers) };
  }

  async function eventStream(path: string, onEvent: (event: StreamEvent) => void, signal: AbortSignal): Promise<void> {
    if (options.getToken() && options.isSessionExpired?.()) throw sessionExpired();
    const sent = headers(false);
    sent.set('accept', 'text/event-stream');
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, { method: 'GET', headers: sent, signal, cache: 'no-store' });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw extractError(undefined, undefined);
    }
    if (!response.ok) throw failure(response.status, await readBody(response), sent);
    if (!response.body) return;
    // eventsource-parser: the maintained parser of the event stream format (fields, multi-line data, comments, retry),
    // loaded with the first stream so the sign-in pages' first load does not carry it.
    const { EventSourceParserStream } = await import('eventsource-parser/stream');
    const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    for (;;) {
      const { value, done } = await events.read();
      if (done) return;
      onEvent({ event: value.event ?? 'message', id: value.id, data: value.data });
    }
  }

  const get = call('GET') as TypedCall<'get'>;
  const post = call('POST') as TypedCall<'post'>;
  const patch = call('PATCH') as TypedCall<'patch'>;

  return {
    ledgerSeq: createLedgerSeq(options.getWorkspaceId),
    get,
    post,
    put: call('PUT') as TypedCall<'put'>,
    patch,
    delete: call('DELETE') as TypedCall<'delete'>,
    upload: (path, options) => upload(path, options),
    eventStream: (path, onEvent, signal) => eventStream(path, onEvent, signal),
    download: (path, ...init) => fetchFile(path, init[0] as LooseInit | undefined),
    downloadLink: (href, signal) => fetchFile(href, { signal }),
    signup: (body) => post('/signup', { body }),
    login: (body) => post('/login', { body }),
    authenticateOtp: (body) => post('/authenticate-otp', { body }),
    resendOtp: (body) => post('/resend-otp', { body }),
    loginOauth: (body) => post('/login-oauth', { body }),
    signupOauth: (body) => post('/signup-oauth', { body }),
    forgotPassword: (body) => post('/forgot-password', { body }),
    resetPassword: (body) => post('/reset-password', { body }),
    updateCredentials: (body) => post('/update-credentials', { body }),
    updatePasswordByExistingPassword: (body) => post('/update-password-by-existing-password', { body }),
    logout: () => post('/logout'),
    onboardUser: (body) => post('/onboard-user', { body }),
    getMe: (signal) => get('/users/me', { signal }),
    updateMe: (body) => patch('/users/me', { body }),
    createLinkToken: () => post('/plaid/link-token'),
    createUpdateToken: (accountId) => post('/plaid/update-token', { body: { accountId } }),
    linkAccounts: (body) => post('/accounts', { body }),
    listAccounts: (signal) => get('/accounts', { signal }),
    removeAccount: (id) => call('DELETE')('/accounts/{id}', { params: { path: { id } } }),
    checkAnomaly: (accountId, signal) => get('/accounts/check-anomaly', { params: { query: { accountId } }, signal }),
    syncTransactions: (accountId) => post('/transactions/sync', { body: { accountId } }),
    listJobs: (filter = {}, signal) => get('/jobs', { params: { query: { accountId: filter.accountId, status: filter.status } }, signal }),
  };
}
