// The sandbox's buckets and objects, in memory. Development and tests only: a test's objects vanish with its
// process (no cleanup between files, no disk to fill on a shared machine), and `npm start` runs the whole stack
// in one process whose databases are recreated at each start anyway.
import { createHash } from 'node:crypto';

export interface StoredObject {
  key: string;
  body: Buffer;
  /** MD5 of the body, hex, quoted as S3 sends it ("…"). */
  etag: string;
  contentType: string;
  contentDisposition?: string;
  metadata: Record<string, string>;
  lastModified: Date;
  checksumCrc32?: string;
}

export interface Bucket {
  name: string;
  createdAt: Date;
  objects: Map<string, StoredObject>;
}

/** S3's bucket naming rules (general purpose buckets): 3-63 characters, lower case, digits, dots and hyphens. */
export function validBucketName(name: string): boolean {
  return /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name) && !/\.\./.test(name) && !/^\d+\.\d+\.\d+\.\d+$/.test(name);
}

export class ObjectStore {
  readonly buckets = new Map<string, Bucket>();

  createBucket(name: string, now: Date): 'created' | 'exists' {
    if (this.buckets.has(name)) return 'exists';
    this.buckets.set(name, { name, createdAt: now, objects: new Map() });
    return 'created';
  }

  put(bucket: Bucket, input: Omit<StoredObject, 'etag'>): StoredObject {
    const object: StoredObject = { ...input, etag: `"${createHash('md5').update(input.body).digest('hex')}"` };
    bucket.objects.set(input.key, object);
    return object;
  }

  /** Keys in UTF-8 binary order (as S3 lists them), after `startAfter`, with `prefix`. */
  list(bucket: Bucket, prefix: string, startAfter: string): StoredObject[] {
    const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    return [...bucket.objects.values()]
      .filter((o) => o.key.startsWith(prefix) && (startAfter === '' || byBytes(o.key, startAfter) > 0))
      .sort((a, b) => byBytes(a.key, b.key));
  }
}
