import { createHash } from 'node:crypto';

export interface SessionCacheOptions {
  /** How long a resolved token is reused; 0 turns caching off (concurrent calls still share one lookup). */
  ttlMs: number;
  /** Bound on the number of tokens kept; the least recently used goes first. */
  maxEntries: number;
  now?: () => number;
}

interface Entry<T> {
  promise: Promise<T>;
  /** Set once the lookup succeeded; used to evict every token of one user. */
  value?: T;
  expiresAt: number;
}

/**
 * A short-lived, bounded LRU of resolved bearer tokens, so a page that fires ten requests asks
 * identity once. Concurrent lookups of one token share a single call; failed lookups are not kept.
 * Keys are SHA-256 digests: raw tokens are never held in memory longer than the request.
 */
export class SessionCache<T extends { userId: string }> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly now: () => number;

  constructor(private readonly options: SessionCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached resolution of `token`, or `resolve(token)` (shared by concurrent callers). */
  async get(token: string, resolve: (token: string) => Promise<T>): Promise<T> {
    const key = keyOf(token);
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && (hit.expiresAt > now || hit.value === undefined)) {
      // Refresh recency: a Map iterates in insertion order, so re-inserting moves it to the end.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.promise;
    }
    if (hit) this.entries.delete(key);

    const entry: Entry<T> = { promise: resolve(token), expiresAt: Number.POSITIVE_INFINITY };
    this.entries.set(key, entry);
    this.trim();
    try {
      entry.value = await entry.promise;
      entry.expiresAt = this.now() + this.options.ttlMs;
      if (this.options.ttlMs <= 0 && this.entries.get(key) === entry) this.entries.delete(key);
      return entry.value;
    } catch (err) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw err;
    }
  }

  /** Forgets one token (logout, password change, a 401 from a service). */
  evict(token: string): void {
    this.entries.delete(keyOf(token));
  }

  /** Forgets every cached token of a user (their other sessions were ended). */
  evictUser(userId: string): void {
    for (const [key, entry] of this.entries) {
      if (entry.value?.userId === userId) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  private trim(): void {
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      this.entries.delete(oldest.value);
    }
  }
}

function keyOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
