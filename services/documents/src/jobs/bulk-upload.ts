import type { Job, Logger } from '@ledgerline/platform';

export interface BulkUploadWorker extends Job {
  /** A batch was enqueued: look for work now instead of at the next poll. */
  wake(): void;
}

/**
 * The bulk-upload worker: works waiting files one after another (reading is CPU-heavy: OCR of one image takes a core),
 * then waits `intervalMs` or a `wake()`. Its state is the `bulk_upload_files` table, shared by replicas with
 * `for update skip locked`; a worker that dies mid-file leaves the file waiting and it is claimed again.
 */
export function createBulkUploadWorker(o: { runOne: () => Promise<boolean>; intervalMs: number; logger: Logger }): BulkUploadWorker {
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let wakeUp: (() => void) | undefined;
  let loop: Promise<void> | undefined;
  const pause = () =>
    new Promise<void>((resolve) => {
      wakeUp = resolve;
      timer = setTimeout(resolve, o.intervalMs);
      timer.unref();
    }).finally(() => {
      clearTimeout(timer);
      wakeUp = undefined;
    });
  const run = async () => {
    while (!stopped) {
      let worked = false;
      try {
        worked = await o.runOne();
      } catch (err) {
        o.logger.warn({ err }, 'bulk upload worker: a pass failed; will try again');
      }
      if (!worked && !stopped) await pause();
    }
  };
  return {
    async start() {
      stopped = false;
      loop = run();
    },
    async stop() {
      stopped = true;
      wakeUp?.();
      await loop;
    },
    wake() {
      wakeUp?.();
    },
  };
}
