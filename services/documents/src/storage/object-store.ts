import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageSettings } from './settings.js';

/** The files of uploads in an S3-compatible store: private objects, handed out as short-lived signed URLs. */
export interface ObjectStore {
  put(key: string, body: Uint8Array, contentType: string, md5Base64: string): Promise<void>;
  /** Size and ETag of an object, or undefined when there is none. */
  head(key: string): Promise<{ size: number; etag: string } | undefined>;
  get(key: string): Promise<Uint8Array | undefined>;
  delete(key: string): Promise<void>;
  /** A URL that fetches the object for `seconds` (inline, under its file name). */
  signedUrl(key: string, fileName: string, contentType: string): Promise<{ url: string; expiresAt: Date }>;
  ensureBucket(): Promise<void>;
  close(): void;
}

const dispositionOf = (fileName: string) =>
  `inline; filename="${fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

export function createObjectStore(s: StorageSettings, clock: () => Date = () => new Date()): ObjectStore {
  const credentials = s.DOCUMENTS_S3_ACCESS_KEY_ID
    ? { accessKeyId: s.DOCUMENTS_S3_ACCESS_KEY_ID, secretAccessKey: s.DOCUMENTS_S3_SECRET_ACCESS_KEY }
    : undefined;
  const clientFor = (endpoint: string) =>
    new S3Client({
      region: s.DOCUMENTS_S3_REGION,
      forcePathStyle: s.DOCUMENTS_S3_FORCE_PATH_STYLE,
      ...(endpoint ? { endpoint } : {}),
      ...(credentials ? { credentials } : {}),
      maxAttempts: 3,
    });
  const s3 = clientFor(s.DOCUMENTS_S3_ENDPOINT);
  const signer = s.DOCUMENTS_S3_PUBLIC_ENDPOINT ? clientFor(s.DOCUMENTS_S3_PUBLIC_ENDPOINT) : s3;
  const Bucket = s.DOCUMENTS_S3_BUCKET;
  const missing = (e: unknown) => e instanceof NotFound || (e instanceof S3ServiceException && (e.name === 'NoSuchKey' || e.$metadata.httpStatusCode === 404));
  return {
    async put(key, body, contentType, md5Base64) {
      await s3.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, ContentMD5: md5Base64 }));
    },
    async head(key) {
      try {
        const h = await s3.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: Number(h.ContentLength ?? 0), etag: (h.ETag ?? '').replace(/"/g, '') };
      } catch (e) {
        if (missing(e)) return undefined;
        throw e;
      }
    },
    async get(key) {
      try {
        const r = await s3.send(new GetObjectCommand({ Bucket, Key: key }));
        return await r.Body!.transformToByteArray();
      } catch (e) {
        if (missing(e)) return undefined;
        throw e;
      }
    },
    async delete(key) {
      await s3.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async signedUrl(key, fileName, contentType) {
      const signingDate = clock();
      const url = await getSignedUrl(
        signer,
        new GetObjectCommand({ Bucket, Key: key, ResponseContentDisposition: dispositionOf(fileName), ResponseContentType: contentType }),
        {
          expiresIn: s.DOCUMENTS_SIGNED_URL_SECONDS,
          signingDate,
        },
      );
      return { url, expiresAt: new Date(signingDate.getTime() + s.DOCUMENTS_SIGNED_URL_SECONDS * 1000) };
    },
    async ensureBucket() {
      try {
        await s3.send(new HeadBucketCommand({ Bucket }));
      } catch (e) {
        if (!missing(e) || !s.DOCUMENTS_S3_CREATE_BUCKET) throw e;
        await s3.send(new CreateBucketCommand({ Bucket })).catch((err: unknown) => {
          if (!(err instanceof S3ServiceException && (err.name === 'BucketAlreadyOwnedByYou' || err.name === 'BucketAlreadyExists'))) throw err;
        });
      }
    },
    close() {
      s3.destroy();
      if (signer !== s3) signer.destroy();
    },
  };
}
