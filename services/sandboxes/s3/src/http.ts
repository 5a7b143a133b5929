// The HTTP edge: S3's REST API, path-style (http://host:port/<bucket>/<key>), every request checked with Signature
// Version 4 (the Authorization header or a presigned URL's query). The operations the product needs: CreateBucket,
// HeadBucket, DeleteBucket, ListBuckets, ListObjectsV2, PutObject, GetObject, HeadObject, DeleteObject; answers and
// errors in S3's XML shapes (Amazon S3 API reference, "Error responses").
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import { queryPairs, sha256Hex, verifyRequest } from './sigv4.js';
import { validBucketName, type Bucket, type ObjectStore, type StoredObject } from './store.js';

/** S3's largest single PUT is 5 GB; the sandbox takes far less. */
export const MAX_OBJECT_BYTES = 64 * 1024 * 1024;

export interface HttpContext {
  store: ObjectStore;
  region: string;
  secretOf: (accessKeyId: string) => string | undefined;
  now: () => number;
  /** Counts of requests refused by authentication (tests read it). */
  refused: { count: number };
}

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const tag = (name: string, value: string | number | boolean) => `<${name}>${xmlEscape(String(value))}</${name}>`;
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';
const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

export function createHttpServer(ctx: HttpContext): Server {
  return createServer((req, res) => {
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    res.setHeader('x-amz-request-id', requestId);
    res.setHeader('Server', 'LedgerlineS3Sandbox');
    // Development pages fetch signed URLs from another origin (a bucket CORS rule allowing GET from anywhere).
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(200, { 'Access-Control-Allow-Methods': 'GET, HEAD, PUT', 'Access-Control-Allow-Headers': '*', 'Access-Control-Max-Age': '600' }).end();
      return;
    }
    handle(ctx, req, res).catch((error: unknown) => {
      const e = error instanceof S3Error ? error : new S3Error(500, 'InternalError', 'We encountered an internal error. Please try again.');
      if (!(error instanceof S3Error)) console.error('s3 sandbox: unhandled error', error);
      if (res.headersSent) {
        res.end();
        return;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const body =
        req.method === 'HEAD'
          ? ''
          : `${XML_HEAD}<Error>${tag('Code', e.code)}${tag('Message', e.message)}${Object.entries(e.extra)
              .map(([k, v]) => tag(k, v))
              .join('')}${tag('Resource', decodeURIComponent(path))}${tag('RequestId', requestId)}</Error>`;
      // A HEAD answer has no body, so S3 names the error in a header.
      res.writeHead(e.status, { 'Content-Type': 'application/xml', ...(req.method === 'HEAD' ? { 'x-amz-error-code': e.code } : {}) });
      res.end(body);
    });
  });
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_OBJECT_BYTES) throw new S3Error(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed object size.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * An aws-chunked body with an unsigned payload (x-amz-content-sha256: STREAMING-UNSIGNED-PAYLOAD-TRAILER, what the
 * SDK sends for a stream with a checksum): `<hex size>\r\n<bytes>\r\n` … `0\r\n<trailer lines>\r\n\r\n`.
 */
function decodeAwsChunked(raw: Buffer): { body: Buffer; trailers: Record<string, string> } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol === -1) throw new S3Error(400, 'IncompleteBody', 'The aws-chunked body ended early.');
    const size = Number.parseInt(raw.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
    if (!Number.isFinite(size) || size < 0) throw new S3Error(400, 'InvalidRequest', 'A chunk size of the aws-chunked body is not hexadecimal.');
    at = eol + 2;
    if (size === 0) break;
    parts.push(raw.subarray(at, at + size));
    at += size + 2;
  }
  const trailers: Record<string, string> = {};
  for (const line of raw.subarray(at).toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { body: Buffer.concat(parts), trailers };
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

function crc32Base64(body: Buffer): string {
  const value = crc32(body);
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0);
  return out.toString('base64');
}

async function handle(ctx: HttpContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const rawQuery = q === -1 ? '' : rawUrl.slice(q + 1);
  const method = req.method ?? 'GET';

  const verified = verifyRequest({ method, rawPath, rawQuery, headers: req.headers }, ctx.secretOf, ctx.region, ctx.now());
  if (!verified.ok) {
    ctx.refused.count += 1;
    await readBody(req).catch(() => undefined);
    throw new S3Error(403, verified.failure.code, verified.failure.message);
  }

  const query = new Map(queryPairs(rawQuery));
  const segments = rawPath.replace(/^\//, '');
  const slash = segments.indexOf('/');
  const bucketName = decodeURIComponent(slash === -1 ? segments : segments.slice(0, slash));
  const key = slash === -1 ? '' : decodeURIComponent(segments.slice(slash + 1));

  if (bucketName === '') {
    if (method !== 'GET') throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    return listBuckets(ctx, res);
  }
  if (key === '') return bucketOperation(ctx, req, res, method, bucketName, query);

  const bucket = ctx.store.buckets.get(bucketName);
  if (!bucket) {
    await readBody(req).catch(() => undefined);
    throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucketName });
  }
  switch (method) {
    case 'PUT':
      return putObject(ctx, req, res, bucket, key, verified.payloadHash);
    case 'GET':
    case 'HEAD':
      return getObject(req, res, bucket, key, query, method === 'HEAD');
    case 'DELETE':
      bucket.objects.delete(key);
      res.writeHead(204).end();
      return;
    default:
      throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }
}

function listBuckets(ctx: HttpContext, res: ServerResponse): void {
  const buckets = [...ctx.store.buckets.values()]
    .map((b) => `<Bucket>${tag('Name', b.name)}${tag('CreationDate', b.createdAt.toISOString())}</Bucket>`)
    .join('');
  res.writeHead(200, { 'Content-Type': 'application/xml' });
  res.end(
    `${XML_HEAD}<ListAllMyBucketsResult xmlns="${NS}"><Owner>${tag('ID', 'ledgerline-sandbox')}${tag('DisplayName', 'ledgerline')}</Owner><Buckets>${buckets}</Buckets></ListAllMyBucketsResult>`,
  );
}

async function bucketOperation(
  ctx: HttpContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  name: string,
  query: Map<string, string>,
): Promise<void> {
  await readBody(req);
  const bucket = ctx.store.buckets.get(name);
  if (method === 'PUT') {
    if (!validBucketName(name)) throw new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.', { BucketName: name });
    if (ctx.store.createBucket(name, new Date(ctx.now())) === 'exists') {
      throw new S3Error(409, 'BucketAlreadyOwnedByYou', 'Your previous request to create the named bucket succeeded and you already own it.', {
        BucketName: name,
      });
    }
    res.writeHead(200, { Location: `/${name}` }).end();
    return;
  }
  if (!bucket) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: name });
  if (method === 'HEAD') {
    res.writeHead(200, { 'x-amz-bucket-region': ctx.region }).end();
    return;
  }
  if (method === 'DELETE') {
    if (bucket.objects.size > 0) throw new S3Error(409, 'BucketNotEmpty', 'The bucket you tried to delete is not empty', { BucketName: name });
    ctx.store.buckets.delete(name);
    res.writeHead(204).end();
    return;
  }
  if (method === 'GET' && query.get('list-type') === '2') return listObjectsV2(ctx, res, bucket, query);
  if (method === 'GET' && query.has('location')) {
    res.writeHead(200, { 'Content-Type': 'application/xml' });
    res.end(`${XML_HEAD}<LocationConstraint xmlns="${NS}">${xmlEscape(ctx.region)}</LocationConstraint>`);
    return;
  }
  throw new S3Error(
    501,
    'NotImplemented',
    'A header or query you provided implies functionality that is not implemented (the sandbox lists with list-type=2 only).',
  );
}

function listObjectsV2(ctx: HttpContext, res: ServerResponse, bucket: Bucket, query: Map<string, string>): void {
  const prefix = query.get('prefix') ?? '';
  const maxKeysRaw = query.get('max-keys');
  const maxKeys = maxKeysRaw === undefined ? 1000 : Number(maxKeysRaw);
  if (!Number.isInteger(maxKeys) || maxKeys < 0) throw new S3Error(400, 'InvalidArgument', 'max-keys must be a non-negative integer');
  const token = query.get('continuation-token');
  let startAfter = query.get('start-after') ?? '';
  if (token !== undefined) {
    const decoded = Buffer.from(token, 'base64url').toString('utf8');
    if (!decoded.startsWith('k:')) throw new S3Error(400, 'InvalidArgument', 'The continuation token provided is incorrect');
    startAfter = decoded.slice(2);
  }
  const all = ctx.store.list(bucket, prefix, startAfter);
  const page = all.slice(0, Math.min(maxKeys, 1000));
  const truncated = all.length > page.length;
  const contents = page
    .map(
      (o) =>
        `<Contents>${tag('Key', o.key)}${tag('LastModified', o.lastModified.toISOString())}${tag('ETag', o.etag)}${tag('Size', o.body.length)}${tag('StorageClass', 'STANDARD')}</Contents>`,
    )
    .join('');
  const next = truncated ? tag('NextContinuationToken', Buffer.from(`k:${page.at(-1)!.key}`).toString('base64url')) : '';
  res.writeHead(200, { 'Content-Type': 'application/xml' });
  res.end(
    `${XML_HEAD}<ListBucketResult xmlns="${NS}">${tag('Name', bucket.name)}${tag('Prefix', prefix)}${tag('KeyCount', page.length)}${tag('MaxKeys', maxKeys)}${tag('IsTruncated', truncated)}` +
      `${token !== undefined ? tag('ContinuationToken', token) : ''}${query.has('start-after') ? tag('StartAfter', query.get('start-after')!) : ''}${contents}${next}</ListBucketResult>`,
  );
}

async function putObject(ctx: HttpContext, req: IncomingMessage, res: ServerResponse, bucket: Bucket, key: string, payloadHash: string): Promise<void> {
  if (Buffer.byteLength(key) > 1024) throw new S3Error(400, 'KeyTooLongError', 'Your key is too long');
  let body = await readBody(req);
  let trailers: Record<string, string> = {};
  const encoding = header(req, 'content-encoding') ?? '';
  if (
    payloadHash === 'STREAMING-UNSIGNED-PAYLOAD-TRAILER' ||
    encoding
      .split(',')
      .map((s) => s.trim())
      .includes('aws-chunked')
  ) {
    if (payloadHash.startsWith('STREAMING-AWS4-HMAC-SHA256'))
      throw new S3Error(501, 'NotImplemented', 'Signed aws-chunked payloads are not implemented by the sandbox; send an unsigned or a whole-body payload.');
    ({ body, trailers } = decodeAwsChunked(body));
    const declared = header(req, 'x-amz-decoded-content-length');
    if (declared !== undefined && Number(declared) !== body.length)
      throw new S3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.');
  } else if (/^[0-9a-f]{64}$/.test(payloadHash) && sha256Hex(body) !== payloadHash) {
    throw new S3Error(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
  }
  const md5 = header(req, 'content-md5');
  if (md5 !== undefined && createHash('md5').update(body).digest('base64') !== md5)
    throw new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
  const crc = header(req, 'x-amz-checksum-crc32') ?? trailers['x-amz-checksum-crc32'];
  if (crc !== undefined && crc32Base64(body) !== crc) throw new S3Error(400, 'BadDigest', 'The CRC32 you specified did not match the calculated checksum.');
  // Conditional write (If-None-Match: *): refused when the key exists, so a retried first write cannot replace it.
  if (header(req, 'if-none-match') === '*' && bucket.objects.has(key))
    throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: 'If-None-Match' });
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith('x-amz-meta-') && typeof value === 'string') metadata[name.slice('x-amz-meta-'.length)] = value;
  }
  const object = ctx.store.put(bucket, {
    key,
    body,
    contentType: header(req, 'content-type') ?? 'application/octet-stream',
    contentDisposition: header(req, 'content-disposition'),
    metadata,
    lastModified: new Date(ctx.now()),
    checksumCrc32: crc,
  });
  res.writeHead(200, { ETag: object.etag, ...(crc !== undefined ? { 'x-amz-checksum-crc32': crc } : {}) }).end();
}

/** Range: bytes=a-b, a- or -n (one range, as S3 serves). */
function parseRange(value: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  if (value === undefined) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'invalid';
  return { start, end };
}

function getObject(req: IncomingMessage, res: ServerResponse, bucket: Bucket, key: string, query: Map<string, string>, headOnly: boolean): void {
  const object: StoredObject | undefined = bucket.objects.get(key);
  if (!object) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
  const ifNoneMatch = header(req, 'if-none-match');
  const headers: Record<string, string | number> = {
    ETag: object.etag,
    'Last-Modified': object.lastModified.toUTCString(),
    'Accept-Ranges': 'bytes',
    // A presigned GET may name how the answer is served (response-content-type, response-content-disposition).
    'Content-Type': query.get('response-content-type') ?? object.contentType,
  };
  const disposition = query.get('response-content-disposition') ?? object.contentDisposition;
  if (disposition) headers['Content-Disposition'] = disposition;
  const cacheControl = query.get('response-cache-control');
  if (cacheControl) headers['Cache-Control'] = cacheControl;
  for (const [name, value] of Object.entries(object.metadata)) headers[`x-amz-meta-${name}`] = value;
  if (ifNoneMatch !== undefined && ifNoneMatch === object.etag) {
    res.writeHead(304, { ETag: object.etag }).end();
    return;
  }
  const range = parseRange(header(req, 'range'), object.body.length);
  if (range === 'invalid')
    throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable', {
      RangeRequested: header(req, 'range') ?? '',
      ActualObjectSize: String(object.body.length),
    });
  if (range) {
    const part = object.body.subarray(range.start, range.end + 1);
    res.writeHead(206, { ...headers, 'Content-Length': part.length, 'Content-Range': `bytes ${range.start}-${range.end}/${object.body.length}` });
    res.end(headOnly ? undefined : part);
    return;
  }
  // The whole object's checksum, when asked for (a range has none, as in S3).
  if (object.checksumCrc32 && header(req, 'x-amz-checksum-mode') === 'ENABLED') headers['x-amz-checksum-crc32'] = object.checksumCrc32;
  res.writeHead(200, { ...headers, 'Content-Length': object.body.length });
  res.end(headOnly ? undefined : object.body);
}
