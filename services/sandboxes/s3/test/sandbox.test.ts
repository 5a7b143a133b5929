// The S3 sandbox driven by the official @aws-sdk/client-s3 and @aws-sdk/s3-request-presigner: every call the
// product makes, S3's errors as the SDK reads them, and Signature V4 refusals (wrong secret, tampered or expired
// presigned URLs, unsigned requests).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Sandbox, type S3Sandbox } from '../src/index.js';

let sandbox: S3Sandbox;
let s3: S3Client;
const BUCKET = 'receipts';

const client = (over: { secretAccessKey?: string; accessKeyId?: string; region?: string } = {}) =>
  new S3Client({
    endpoint: sandbox.url,
    region: over.region ?? sandbox.region,
    forcePathStyle: true,
    credentials: { accessKeyId: over.accessKeyId ?? sandbox.accessKeyId, secretAccessKey: over.secretAccessKey ?? sandbox.secretAccessKey },
  });

async function failure(p: Promise<unknown>): Promise<S3ServiceException> {
  try {
    await p;
  } catch (e) {
    if (e instanceof S3ServiceException) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  sandbox = await startS3Sandbox({ port: 0 });
  s3 = client();
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});
afterAll(async () => {
  s3?.destroy();
  await sandbox?.close();
});

describe('objects through the official SDK', () => {
  it('puts, heads, gets and deletes an object; the ETag is the MD5 of the bytes', async () => {
    const body = Buffer.from('%PDF-1.4 a receipt from Blue Bottle, total 12.50');
    const put = await s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: 'ws-1/u 1/receipt (1).pdf',
        Body: body,
        ContentType: 'application/pdf',
        Metadata: { filename: 'receipt.pdf' },
      }),
    );
    const md5 = createHash('md5').update(body).digest('hex');
    expect(put.ETag).toBe(`"${md5}"`);

    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'ws-1/u 1/receipt (1).pdf' }));
    expect(head.ContentLength).toBe(body.length);
    expect(head.ContentType).toBe('application/pdf');
    expect(head.Metadata).toEqual({ filename: 'receipt.pdf' });

    const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'ws-1/u 1/receipt (1).pdf' }));
    expect(Buffer.from(await got.Body!.transformToByteArray())).toEqual(body);
    expect(got.ETag).toBe(`"${md5}"`);

    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'ws-1/u 1/receipt (1).pdf' }));
    const gone = await failure(s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'ws-1/u 1/receipt (1).pdf' })));
    expect(gone).toBeInstanceOf(NoSuchKey);
    expect(gone.$metadata.httpStatusCode).toBe(404);
  });

  it('takes a streamed body (aws-chunked with a CRC32 trailer) and keeps its bytes', async () => {
    const bytes = Buffer.alloc(300_000, 7);
    bytes.write('streamed');
    await s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: 'stream.bin',
        Body: Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]),
        ContentLength: bytes.length,
      }),
    );
    expect(sandbox.object(BUCKET, 'stream.bin')).toEqual(bytes);
  });

  it('answers a range', async () => {
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'range.txt', Body: '0123456789' }));
    const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'range.txt', Range: 'bytes=2-5' }));
    expect(await got.Body!.transformToString()).toBe('2345');
    expect(got.ContentRange).toBe('bytes 2-5/10');
  });

  it('refuses a conditional first write when the key exists (If-None-Match: *)', async () => {
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'once.txt', Body: 'first', IfNoneMatch: '*' }));
    const again = await failure(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'once.txt', Body: 'second', IfNoneMatch: '*' })));
    expect(again.name).toBe('PreconditionFailed');
    expect(again.$metadata.httpStatusCode).toBe(412);
    expect(sandbox.object(BUCKET, 'once.txt')?.toString()).toBe('first');
  });

  it('lists with ListObjectsV2: prefix, pages and continuation tokens', async () => {
    for (let i = 0; i < 5; i += 1) await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `list/${i}.txt`, Body: `n${i}` }));
    const first = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'list/', MaxKeys: 3 }));
    expect(first.Contents?.map((c) => c.Key)).toEqual(['list/0.txt', 'list/1.txt', 'list/2.txt']);
    expect(first.IsTruncated).toBe(true);
    const second = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'list/', MaxKeys: 3, ContinuationToken: first.NextContinuationToken }));
    expect(second.Contents?.map((c) => c.Key)).toEqual(['list/3.txt', 'list/4.txt']);
    expect(second.IsTruncated).toBe(false);
    expect(second.Contents?.[0]?.Size).toBe(2);
  });

  it('creates, heads and lists buckets; a missing bucket is NoSuchBucket / NotFound', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'second-bucket' }));
    const dup = await failure(s3.send(new CreateBucketCommand({ Bucket: 'second-bucket' })));
    expect(dup.name).toBe('BucketAlreadyOwnedByYou');
    await s3.send(new HeadBucketCommand({ Bucket: 'second-bucket' }));
    const names = (await s3.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name);
    expect(names).toEqual(expect.arrayContaining([BUCKET, 'second-bucket']));
    const missing = await failure(s3.send(new HeadBucketCommand({ Bucket: 'no-such-bucket' })));
    expect(missing).toBeInstanceOf(NotFound);
    const put = await failure(s3.send(new PutObjectCommand({ Bucket: 'no-such-bucket', Key: 'k', Body: 'x' })));
    expect(put.name).toBe('NoSuchBucket');
    const bad = await failure(s3.send(new CreateBucketCommand({ Bucket: 'Bad_Name' })));
    expect(bad.name).toBe('InvalidBucketName');
  });

  it('HEAD of a missing key is a 404 NotFound', async () => {
    const e = await failure(s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'nothing-here' })));
    expect(e).toBeInstanceOf(NotFound);
    expect(e.$metadata.httpStatusCode).toBe(404);
  });
});

describe('Signature V4 is verified', () => {
  it('refuses a wrong secret (SignatureDoesNotMatch), an unknown key (InvalidAccessKeyId) and another region', async () => {
    const before = sandbox.refusedRequests();
    const wrongSecret = client({ secretAccessKey: 'not-the-secret' });
    const e1 = await failure(wrongSecret.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'forged.txt', Body: 'x' })));
    expect(e1.name).toBe('SignatureDoesNotMatch');
    expect(e1.$metadata.httpStatusCode).toBe(403);
    const e2 = await failure(client({ accessKeyId: 'AKIAUNKNOWN' }).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'range.txt' })));
    expect(e2.name).toBe('InvalidAccessKeyId');
    const e3 = await failure(client({ region: 'eu-west-1' }).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'range.txt' })));
    expect(e3.name).toBe('AuthorizationHeaderMalformed');
    expect(sandbox.keys(BUCKET)).not.toContain('forged.txt');
    expect(sandbox.refusedRequests()).toBe(before + 3);
  });

  it('refuses an unsigned request with an XML AccessDenied', async () => {
    const res = await fetch(`${sandbox.url}/${BUCKET}/range.txt`);
    expect(res.status).toBe(403);
    const xml = await res.text();
    expect(xml).toContain('<Code>AccessDenied</Code>');
    expect(xml).toContain(`<Resource>/${BUCKET}/range.txt</Resource>`);
  });

  it('refuses a body that is not the one signed (XAmzContentSHA256Mismatch)', async () => {
    // Sign one body, send another: a middle box that changes the bytes is caught.
    const forged = new S3Client({
      endpoint: sandbox.url,
      region: sandbox.region,
      forcePathStyle: true,
      credentials: { accessKeyId: sandbox.accessKeyId, secretAccessKey: sandbox.secretAccessKey },
    });
    forged.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { body?: unknown };
        request.body = 'tampered';
        return next(args);
      },
      { step: 'finalizeRequest', priority: 'low', name: 'tamper' },
    );
    const e = await failure(forged.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'tampered.txt', Body: 'original', ChecksumAlgorithm: undefined })));
    expect(['XAmzContentSHA256Mismatch', 'BadDigest']).toContain(e.name);
    expect(sandbox.keys(BUCKET)).not.toContain('tampered.txt');
  });
});

describe('presigned URLs', () => {
  it('a presigned GET works without credentials, honours response-content-disposition, and expires', async () => {
    await s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: 'signed/receipt.png', Body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), ContentType: 'image/png' }),
    );
    const url = await getSignedUrl(
      s3,
      new GetObjectCommand({ Bucket: BUCKET, Key: 'signed/receipt.png', ResponseContentDisposition: 'inline; filename="receipt.png"' }),
      { expiresIn: 60 },
    );
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect(ok.headers.get('content-disposition')).toBe('inline; filename="receipt.png"');
    expect(Buffer.from(await ok.arrayBuffer())).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));

    sandbox.advanceClock(61_000);
    try {
      const late = await fetch(url);
      expect(late.status).toBe(403);
      const xml = await late.text();
      expect(xml).toContain('<Code>AccessDenied</Code>');
      expect(xml).toContain('Request has expired');
    } finally {
      sandbox.advanceClock(-61_000);
    }
  });

  it('a tampered presigned URL (another key, a longer expiry, a changed signature) is 403', async () => {
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'signed/a.txt', Body: 'a' }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'signed/b.txt', Body: 'b' }));
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: 'signed/a.txt' }), { expiresIn: 30 });
    expect((await fetch(url)).status).toBe(200);
    const otherKey = url.replace('/signed/a.txt', '/signed/b.txt');
    const longer = url.replace('X-Amz-Expires=30', 'X-Amz-Expires=604800');
    const sig = /X-Amz-Signature=([0-9a-f]+)/.exec(url)![1]!;
    const changedSig = url.replace(sig, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    for (const bad of [otherKey, longer, changedSig]) {
      const res = await fetch(bad);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    }
    const noSig = url.replace(/&?X-Amz-Signature=[0-9a-f]+/, '');
    const res = await fetch(noSig);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Code>AuthorizationQueryParametersError</Code>');
  });

  it('a presigned PUT stores the body; the same URL cannot GET', async () => {
    const url = await getSignedUrl(s3, new PutObjectCommand({ Bucket: BUCKET, Key: 'signed/put.txt', ContentType: 'text/plain' }), { expiresIn: 60 });
    const put = await fetch(url, { method: 'PUT', body: 'via presigned put', headers: { 'content-type': 'text/plain' } });
    expect(put.status).toBe(200);
    expect(sandbox.object(BUCKET, 'signed/put.txt')?.toString()).toBe('via presigned put');
    expect((await fetch(url)).status).toBe(403);
  });
});
