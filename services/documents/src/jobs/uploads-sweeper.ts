import type { Job, Logger } from '@ledgerline/platform';
import type { ObjectStore } from '../storage/object-store.js';

export interface UploadsSweeper extends Job {
  /** One sweep now (tests, and at start). */
  runOnce(): Promise<{ stored: number; removed: number }>;
}

/**
 * At start: the bucket is there (created in development and tests when missing; a store out of reach is logged). Then every `intervalMs`: uploads
 * left 'pending' by a crash for longer than the grace period are settled (uploads use case `sweep`). No state of its
 * own; several replicas share the rows with `for update skip locked`.
 */
export function createUploadsSweeper(o: {
  store: ObjectStore;
  sweep: () => Promise<{ stored: number; removed: number }>;
  intervalMs: number;
  logger: Logger;
}): UploadsSweeper {
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let running: Promise<unknown> | undefined;
  const tick = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = o
        .sweep()
        .catch((err: unknown) => o.logger.warn({ err }, 'uploads sweep failed; will try again'))
        .finally(() => {
          running = undefined;
          tick();
        });
    }, o.intervalMs);
    timer.unref();
  };
  return {
    async start() {
      // Bills, invoices and journals do not need the store: the service starts without it (uploads answer 503 until it is back).
      await o.store.ensureBucket().catch((err: unknown) => o.logger.warn({ err }, 'the uploads object store cannot be reached; uploads fail until it can'));
      stopped = false;
      tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      o.store.close();
    },
    runOnce: () => o.sweep(),
  };
}
