// AWS Signature Version 4 verification, written from the public reference ("Signature Version 4 signing process",
// "Authenticating Requests: Using the Authorization Header" and "Using Query Parameters" in the Amazon S3 API
// reference). Written here rather than calling the SDK's own signer so that the server checks the client with an
// independent implementation: a bug in the signer would otherwise be mirrored and go unseen.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const ALGORITHM = 'AWS4-HMAC-SHA256';
/** The longest a presigned URL may live (seven days), as S3 allows. */
export const MAX_PRESIGN_SECONDS = 604_800;
/** How far a header-signed request's X-Amz-Date may be from the server's clock (S3: 15 minutes). */
export const MAX_SKEW_MS = 15 * 60 * 1000;

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Why a request is refused (an S3 error code and message), or null when it is authentic. */
export interface AuthFailure {
  code:
    | 'AccessDenied'
    | 'InvalidAccessKeyId'
    | 'SignatureDoesNotMatch'
    | 'AuthorizationHeaderMalformed'
    | 'AuthorizationQueryParametersError'
    | 'RequestTimeTooSkewed';
  message: string;
}

export interface SignedRequest {
  method: string;
  /** The path exactly as sent (still percent-encoded). */
  rawPath: string;
  /** The query string as sent, without the '?'. */
  rawQuery: string;
  headers: Record<string, string | string[] | undefined>;
}

export type Verified = { ok: true; presigned: boolean; payloadHash: string; accessKeyId: string } | { ok: false; failure: AuthFailure };

export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: Uint8Array | string, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it: unreserved characters stay, everything else is %XX (upper case). */
export function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, '%20'));
  } catch {
    return value;
  }
}

/** The query's pairs (decoded), in order. */
export function queryPairs(rawQuery: string): Array<[string, string]> {
  if (rawQuery === '') return [];
  return rawQuery
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const at = p.indexOf('=');
      return at === -1 ? [decode(p), ''] : [decode(p.slice(0, at)), decode(p.slice(at + 1))];
    });
}

function canonicalQuery(pairs: Array<[string, string]>): string {
  return pairs
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

function headerValue(headers: SignedRequest['headers'], name: string): string | undefined {
  const v = headers[name];
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v.join(',') : v).trim().replace(/\s+/g, ' ');
}

function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

/** The signature the request should carry (hex), given what it says it signed. */
export function expectedSignature(input: {
  method: string;
  rawPath: string;
  pairs: Array<[string, string]>;
  headers: SignedRequest['headers'];
  signedHeaders: string[];
  payloadHash: string;
  amzDate: string;
  scope: string;
  secret: string;
}): string {
  const canonicalHeaders = input.signedHeaders.map((h) => `${h}:${headerValue(input.headers, h) ?? ''}\n`).join('');
  const canonicalRequest = [
    input.method,
    input.rawPath === '' ? '/' : input.rawPath,
    canonicalQuery(input.pairs),
    canonicalHeaders,
    input.signedHeaders.join(';'),
    input.payloadHash,
  ].join('\n');
  const stringToSign = [ALGORITHM, input.amzDate, input.scope, sha256Hex(canonicalRequest)].join('\n');
  const [date, region, service] = input.scope.split('/');
  return createHmac('sha256', signingKey(input.secret, date!, region!, service!))
    .update(stringToSign, 'utf8')
    .digest('hex');
}

/** 20260131T235959Z → milliseconds, or NaN. */
export function parseAmzDate(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return Number.NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const fail = (code: AuthFailure['code'], message: string): Verified => ({ ok: false, failure: { code, message } });

interface Credential {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  terminator: string;
}

function parseCredential(value: string): Credential | null {
  const parts = value.split('/');
  if (parts.length !== 5) return null;
  const [accessKeyId, date, region, service, terminator] = parts as [string, string, string, string, string];
  return { accessKeyId, date, region, service, terminator };
}

/**
 * Checks a request signed in its Authorization header or by query parameters (a presigned URL). `now` is the
 * server's clock: a presigned URL past X-Amz-Date + X-Amz-Expires is refused, as is a header-signed request more
 * than 15 minutes from it.
 */
export function verifyRequest(req: SignedRequest, keys: (accessKeyId: string) => string | undefined, region: string, now: number): Verified {
  const pairs = queryPairs(req.rawQuery);
  const query = new Map(pairs);
  const authorization = headerValue(req.headers, 'authorization');
  if (query.has('X-Amz-Signature') || query.has('X-Amz-Algorithm')) {
    if (authorization)
      return fail('AccessDenied', 'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter or the Authorization header should be specified');
    return verifyPresigned(req, pairs, query, keys, region, now);
  }
  if (!authorization) return fail('AccessDenied', 'Access Denied');
  const m = /^AWS4-HMAC-SHA256\s+Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!m)
    return fail(
      'AuthorizationHeaderMalformed',
      'The authorization header is malformed; expected AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...',
    );
  const credential = parseCredential(m[1]!);
  if (!credential || credential.service !== 's3' || credential.terminator !== 'aws4_request')
    return fail(
      'AuthorizationHeaderMalformed',
      'The authorization header is malformed; the Credential is not of the form <key>/<date>/<region>/s3/aws4_request',
    );
  if (credential.region !== region)
    return fail('AuthorizationHeaderMalformed', `The authorization header is malformed; the region '${credential.region}' is wrong; expecting '${region}'`);
  const secret = keys(credential.accessKeyId);
  if (secret === undefined) return fail('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  const amzDate = headerValue(req.headers, 'x-amz-date') ?? '';
  const at = parseAmzDate(amzDate);
  if (Number.isNaN(at) || amzDate.slice(0, 8) !== credential.date) return fail('AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
  if (Math.abs(now - at) > MAX_SKEW_MS) return fail('RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
  const signedHeaders = m[2]!.split(';');
  if (!signedHeaders.includes('host')) return fail('AccessDenied', 'The host header must be signed');
  const payloadHash = headerValue(req.headers, 'x-amz-content-sha256');
  if (!payloadHash) return fail('AccessDenied', 'x-amz-content-sha256 must be sent with a Signature Version 4 request');
  const scope = `${credential.date}/${credential.region}/${credential.service}/${credential.terminator}`;
  const expected = expectedSignature({
    method: req.method,
    rawPath: req.rawPath,
    pairs,
    headers: req.headers,
    signedHeaders,
    payloadHash,
    amzDate,
    scope,
    secret,
  });
  if (!sameHex(expected, m[3]!))
    return fail('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
  return { ok: true, presigned: false, payloadHash, accessKeyId: credential.accessKeyId };
}

function verifyPresigned(
  req: SignedRequest,
  pairs: Array<[string, string]>,
  query: Map<string, string>,
  keys: (id: string) => string | undefined,
  region: string,
  now: number,
): Verified {
  const needed = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature'];
  const missing = needed.filter((n) => !query.get(n));
  if (missing.length > 0)
    return fail(
      'AuthorizationQueryParametersError',
      `Query-string authentication version 4 requires the ${needed.join(', ')} parameters (missing ${missing.join(', ')})`,
    );
  if (query.get('X-Amz-Algorithm') !== ALGORITHM) return fail('AuthorizationQueryParametersError', 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
  const credential = parseCredential(query.get('X-Amz-Credential')!);
  if (!credential || credential.service !== 's3' || credential.terminator !== 'aws4_request')
    return fail('AuthorizationQueryParametersError', 'X-Amz-Credential is not of the form <key>/<date>/<region>/s3/aws4_request');
  if (credential.region !== region)
    return fail(
      'AuthorizationQueryParametersError',
      `Error parsing the X-Amz-Credential parameter; the region '${credential.region}' is wrong; expecting '${region}'`,
    );
  const expires = Number(query.get('X-Amz-Expires'));
  if (!Number.isInteger(expires) || expires < 1 || expires > MAX_PRESIGN_SECONDS)
    return fail('AuthorizationQueryParametersError', 'X-Amz-Expires must be an integer between 1 and 604800 seconds');
  const amzDate = query.get('X-Amz-Date')!;
  const at = parseAmzDate(amzDate);
  if (Number.isNaN(at) || amzDate.slice(0, 8) !== credential.date)
    return fail(
      'AuthorizationQueryParametersError',
      "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\" and agree with the credential date",
    );
  const secret = keys(credential.accessKeyId);
  if (secret === undefined) return fail('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (at - now > MAX_SKEW_MS) return fail('AccessDenied', 'Request is not yet valid');
  // The signature first: a tampered URL is a signature mismatch, whether or not it has also expired.
  const signedHeaders = query.get('X-Amz-SignedHeaders')!.split(';');
  if (!signedHeaders.includes('host')) return fail('AccessDenied', 'The host header must be signed');
  const scope = `${credential.date}/${credential.region}/${credential.service}/${credential.terminator}`;
  const payloadHash = headerValue(req.headers, 'x-amz-content-sha256') ?? 'UNSIGNED-PAYLOAD';
  const expected = expectedSignature({
    method: req.method,
    rawPath: req.rawPath,
    pairs: pairs.filter(([k]) => k !== 'X-Amz-Signature'),
    headers: req.headers,
    signedHeaders,
    payloadHash,
    amzDate,
    scope,
    secret,
  });
  if (!sameHex(expected, query.get('X-Amz-Signature')!))
    return fail('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
  if (now > at + expires * 1000) return fail('AccessDenied', 'Request has expired');
  return { ok: true, presigned: true, payloadHash, accessKeyId: credential.accessKeyId };
}
