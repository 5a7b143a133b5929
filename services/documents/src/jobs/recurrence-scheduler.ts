import type { Job, Logger } from '@ledgerline/platform';

export interface RecurrenceSchedulerOptions {
  /** One sweep at the clock's today (the recurrence use cases' `runDue`); answers the documents created. */
  sweep: () => Promise<number>;
  /** Time between sweeps. */
  intervalMs: number;
  logger: Logger;
}

export interface RecurrenceScheduler extends Job {
  /** Sweeps now (after the sweep under way, if any); answers what it created. */
  runOnce(): Promise<number>;
  /** Asks for a sweep soon (a new schedule's due dates are caught up at once rather than at the next tick). */
  wake(): void;
}

/**
 * The scheduler of recurrences: a sweep at start (catching up what came due while no replica ran), then every
 * `intervalMs`. It keeps no state of its own: where each schedule stands is in the documents database (`recurrences`,
 * `recurrence_occurrences`), so a restart or a second replica changes nothing but who does the work; the unique
 * (template, date) key makes each occurrence once (decision 0019-recurrence-schedule). One sweep at a time per process.
 */
export function createRecurrenceScheduler(o: RecurrenceSchedulerOptions): RecurrenceScheduler {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;
  let again = false;

  const runOnce = async (): Promise<number> => {
    while (running) await running.catch(() => 0);
    running = o.sweep();
    try {
      return await running;
    } finally {
      running = undefined;
    }
  };
  const schedule = (ms: number): void => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      runOnce()
        .then((n) => {
          if (n > 0) o.logger.info({ created: n }, 'recurrence: occurrences created');
        })
        .catch((err: unknown) => o.logger.warn({ err }, 'recurrence sweep failed; will try again'))
        .finally(() => {
          const soon = again;
          again = false;
          schedule(soon ? 0 : o.intervalMs);
        });
    }, ms);
    timer.unref();
  };

  return {
    async start() {
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => 0);
    },
    runOnce,
    wake() {
      if (stopped) return;
      if (running) again = true;
      else schedule(0);
    },
  };
}
