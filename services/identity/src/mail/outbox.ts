import { withSystem, type Job, type Knex, type Logger } from '@ledgerline/platform';
import { mailOutbox, type MailRow } from '../store/mail-store.js';
import type { Mailer } from './mailer.js';

export interface MailOutboxOptions {
  /** The application pool; claims run on its paired system pool (`withSystem`). */
  db: Knex;
  mailer: Mailer;
  logger: Logger;
  /** Attempts before a mail is given up (with an error log). */
  maxAttempts: number;
  /** Back-off after the n-th failed attempt: base × 2^(n−1), at most an hour. */
  retryBaseMs: number;
  /** How often due rows are looked for when nothing wakes the job (retries, rows of other replicas). */
  pollMs: number;
  /** How long a claimed row is left to its sender; must outlast one SMTP send (the mailer's timeouts). */
  leaseMs: number;
  /** Sent and given-up rows older than this are deleted. */
  keepMs?: number;
  batchSize?: number;
}

const MAX_BACKOFF_MS = 3_600_000;
const PRUNE_EVERY_MS = 60_000;

/** Back-off after `attempts` failed attempts (1, 2, ...): doubling from `baseMs`, capped at an hour. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

/** An error as it may be stored and logged: the SMTP reply or the network error, never the mail. */
function describe(err: unknown): string {
  const e = err as { code?: string; responseCode?: number; message?: string };
  return [e.code, e.responseCode, e.message ?? String(err)].filter((x) => x !== undefined && x !== '').join(' ').slice(0, 500);
}

/**
 * Sends the mail outbox (issue #15 item 6). Flows write mail rows in their own transaction; this job
 * claims due rows with FOR UPDATE SKIP LOCKED (any number of replicas), sends each over SMTP, and marks
 * it sent or schedules a retry with back-off, giving up after `maxAttempts` with an error log.
 *
 * Delivery is at least once: a process that dies after SMTP accepted a mail and before the row was
 * marked sends it again when the row's lease ends. The flow that wrote the row wakes the job right after
 * its commit, so the mail leaves within milliseconds of the answer; the answer never waits for SMTP.
 */
export class MailOutbox implements Job {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private lastPrune = 0;
  /** Mails handed to SMTP by this process (tests and metrics). */
  sent = 0;

  constructor(private readonly options: MailOutboxOptions) {}

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming and waits for the mails being sent now; rows not yet claimed stay for the next start. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    this.loop = undefined;
  }

  /** A flow committed mail rows: look now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Claims and sends one batch of due rows; answers how many were claimed. */
  async deliverDue(): Promise<number> {
    const { db, batchSize = 10, leaseMs, logger, maxAttempts, retryBaseMs } = this.options;
    const rows = await withSystem(db, (trx) => mailOutbox.claimDue(trx, batchSize, leaseMs));
    if (rows.length === 0) return 0;
    const outcomes = await Promise.all(rows.map((row) => this.send(row)));
    // One short transaction records the batch (should it fail, the leases end and the batch goes again: at least once).
    await withSystem(db, async (trx) => {
      for (const { row, error } of outcomes) {
        if (error === undefined) await mailOutbox.markSent(trx, row.id);
        else if (row.attempts >= maxAttempts) await mailOutbox.giveUp(trx, row.id, error);
        else await mailOutbox.retryLater(trx, row.id, retryDelayMs(row.attempts, retryBaseMs), error);
      }
    });
    for (const { row, error } of outcomes) {
      if (error === undefined) continue;
      if (row.attempts >= maxAttempts) logger.error({ mailId: row.id, kind: row.kind, attempts: row.attempts, reason: error }, 'mail given up after its last attempt');
      else logger.warn({ mailId: row.id, kind: row.kind, attempts: row.attempts, retryInMs: retryDelayMs(row.attempts, retryBaseMs), reason: error }, 'mail not sent; retrying later');
    }
    return rows.length;
  }

  /** One SMTP send; answers the error as it may be stored and logged, if any. */
  private async send(row: MailRow): Promise<{ row: MailRow; error?: string }> {
    try {
      await this.options.mailer.send({ to: row.to, subject: row.subject, text: row.text, html: row.html });
      this.sent++;
      return { row };
    } catch (err) {
      return { row, error: describe(err) };
    }
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await withSystem(this.options.db, (trx) => mailOutbox.prune(trx, this.options.keepMs ?? 86_400_000));
  }

  private async run(): Promise<void> {
    const { logger, pollMs } = this.options;
    let failures = 0;
    while (this.running) {
      this.woken = false;
      try {
        const claimed = await this.deliverDue();
        await this.prune();
        failures = 0;
        if (claimed > 0) continue;
      } catch (err) {
        failures++;
        logger.error({ err, failures }, 'mail outbox failed; retrying');
      }
      if (this.woken || !this.running) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, failures ? Math.min(30_000, 200 * 2 ** failures) : pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }
}
