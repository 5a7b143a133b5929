import type { Knex } from 'knex';
import { z } from 'zod';
import type { Job } from '../kit/define-service.js';
import { withSystem } from '../db/tenancy.js';
import { newId } from '../ids.js';
import type { Logger } from '../logger.js';
import { createMailer, type Mailer, type MailMessage } from './mailer.js';

// The mail outbox of every service that mails (identity's codes, resets and invites; the firm's invites):
// a row written in the flow's transaction, sent by a job. Issue #15 item 6 built it in identity; issue #16
// moved it here so the firm's invite mail is as durable as identity's.

type Db = Knex | Knex.Transaction;

/** What a flow writes: one mail and its kind (for logs and metrics; the body is never logged). */
export interface OutgoingMail extends MailMessage {
  kind: string;
}

export interface MailRow extends OutgoingMail {
  id: string;
  attempts: number;
  created_at: Date;
}

/** The settings of a service that mails (extend the service's schema with them: `baseConfigSchema.extend({ ...MAIL_SETTINGS })`). */
export const MAIL_SETTINGS = {
  /** smtp://host:port; empty logs mail instead of sending (development only). */
  SMTP_URL: z.string().default(''),
  MAIL_FROM: z.string().default('Ledgerline <no-reply@ledgerline.local>'),
  /** Attempts before a mail is given up (with an error log). */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /** Back-off after the n-th failed attempt: base × 2^(n−1), at most an hour. */
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
  /** How often due rows are looked for when nothing wakes the job (retries, rows of a replica that died). */
  MAIL_POLL_MS: z.coerce.number().int().min(10).default(1_000),
  /** Each SMTP wait (connect, greeting, socket idle); a claimed row's lease is derived from it. */
  MAIL_SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
};

export type MailSettings = { [K in keyof typeof MAIL_SETTINGS]: z.infer<(typeof MAIL_SETTINGS)[K]> };

/**
 * Creates `mail_outbox` (a service's migration calls it). No workspace_id: mail is a person's, not a tenant's,
 * so the table has no row-level security; the application role writes rows, the system role's pool claims them.
 */
export async function createMailOutboxTable(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_outbox', (t) => {
    t.uuid('id').primary();
    t.text('to').notNullable();
    t.text('subject').notNullable();
    t.text('text').notNullable();
    t.text('html').notNullable();
    t.text('kind').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('attempts').notNullable().defaultTo(0);
    // Null once sent or given up; otherwise when the job may (re)try it (a claim moves it one lease ahead).
    t.timestamp('next_attempt_at', { useTz: true }).defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    t.text('last_error');
  });
  await knex.raw('create index mail_outbox_due on mail_outbox (next_attempt_at) where sent_at is null and next_attempt_at is not null');
  await knex.raw('create index mail_outbox_created on mail_outbox (created_at)');
}

export async function dropMailOutboxTable(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('mail_outbox');
}

/** A claimed row's lease and other waits as a PostgreSQL interval. */
const interval = (ms: number) => `${Math.max(0, Math.round(ms))} milliseconds`;

/**
 * The queries of `mail_outbox`. Rows are written in the flow's transaction; the job claims them on the system
 * role's pool. Times are the database's clock, so every replica agrees on what is due.
 */
export const mailOutboxStore = {
  /** Writes one mail in the caller's transaction: it is sent if and only if that transaction commits. */
  add: (db: Db, mail: OutgoingMail) =>
    db('mail_outbox').insert({ id: newId(), to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, kind: mail.kind }),

  /**
   * Claims up to `limit` due rows (FOR UPDATE SKIP LOCKED: replicas never claim the same row) and moves
   * them `leaseMs` ahead, counting the attempt. The claim commits before sending, so no transaction is held
   * open over SMTP; a process that dies mid-send leaves its rows to be claimed again when the lease ends.
   */
  claimDue: async (db: Db, limit: number, leaseMs: number): Promise<MailRow[]> => {
    const result = await db.raw(
      `update mail_outbox set attempts = attempts + 1, next_attempt_at = now() + ?::interval
        where id in (select id from mail_outbox
                      where sent_at is null and next_attempt_at is not null and next_attempt_at <= now()
                      order by next_attempt_at limit ? for update skip locked)
        returning id, "to", subject, text, html, kind, attempts, created_at`,
      [interval(leaseMs), limit],
    );
    return result.rows as MailRow[];
  },

  /** Sent: the body (codes, links) is wiped at once; the row stays a day for the record. */
  markSent: (db: Db, id: string) =>
    db('mail_outbox').where({ id }).update({ sent_at: db.fn.now(), next_attempt_at: null, subject: '', text: '', html: '', last_error: null }),

  /** A failed attempt: tried again after `delayMs`. */
  retryLater: (db: Db, id: string, delayMs: number, error: string) =>
    db('mail_outbox')
      .where({ id })
      .whereNull('sent_at')
      .update({ next_attempt_at: db.raw('now() + ?::interval', [interval(delayMs)]), last_error: error }),

  /** Given up after the last attempt: never claimed again, body wiped. */
  giveUp: (db: Db, id: string, error: string) =>
    db('mail_outbox').where({ id }).whereNull('sent_at').update({ next_attempt_at: null, last_error: error, subject: '', text: '', html: '' }),

  /** Deletes up to `limit` rows sent or given up more than `olderThanMs` ago; answers how many. */
  prune: async (db: Db, olderThanMs: number, limit = 500): Promise<number> => {
    const result = await db.raw(
      `delete from mail_outbox where id in (
         select id from mail_outbox where next_attempt_at is null and coalesce(sent_at, created_at) < now() - ?::interval limit ?)`,
      [interval(olderThanMs), limit],
    );
    return (result as { rowCount: number }).rowCount;
  },
};

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
export function mailRetryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

/** An error as it may be stored and logged: the SMTP reply or the network error, never the mail. */
function describe(err: unknown): string {
  const e = err as { code?: string; responseCode?: number; message?: string };
  return [e.code, e.responseCode, e.message ?? String(err)]
    .filter((x) => x !== undefined && x !== '')
    .join(' ')
    .slice(0, 500);
}

/**
 * Sends a service's mail outbox. Flows write mail rows in their own transaction; this job claims due rows
 * with FOR UPDATE SKIP LOCKED (any number of replicas), sends each over SMTP, and marks it sent or schedules
 * a retry with back-off, giving up after `maxAttempts` with an error log.
 *
 * Delivery is at least once: a process that dies after SMTP accepted a mail and before the row was marked
 * sends it again when the row's lease ends. The flow that wrote the row wakes the job right after its
 * commit, so the mail leaves within milliseconds of the answer; the answer never waits for SMTP.
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
    const rows = await withSystem(db, (trx) => mailOutboxStore.claimDue(trx, batchSize, leaseMs));
    if (rows.length === 0) return 0;
    const outcomes = await Promise.all(rows.map((row) => this.send(row)));
    // One short transaction records the batch (should it fail, the leases end and the batch goes again: at least once).
    await withSystem(db, async (trx) => {
      for (const { row, error } of outcomes) {
        if (error === undefined) await mailOutboxStore.markSent(trx, row.id);
        else if (row.attempts >= maxAttempts) await mailOutboxStore.giveUp(trx, row.id, error);
        else await mailOutboxStore.retryLater(trx, row.id, mailRetryDelayMs(row.attempts, retryBaseMs), error);
      }
    });
    for (const { row, error } of outcomes) {
      if (error === undefined) continue;
      if (row.attempts >= maxAttempts)
        logger.error({ mailId: row.id, kind: row.kind, attempts: row.attempts, reason: error }, 'mail given up after its last attempt');
      else
        logger.warn(
          { mailId: row.id, kind: row.kind, attempts: row.attempts, retryInMs: mailRetryDelayMs(row.attempts, retryBaseMs), reason: error },
          'mail not sent; retrying later',
        );
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
    await withSystem(this.options.db, (trx) => mailOutboxStore.prune(trx, this.options.keepMs ?? 86_400_000));
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

/**
 * A service's mail outbox job from its mail settings: the SMTP sender (or a test's `mailer`) and a claimed row's
 * lease of four SMTP waits (connect, greeting, socket idle, and slack), so a lease outlasts one send.
 */
export function createMailOutbox({ db, logger, settings, mailer }: { db: Knex; logger: Logger; settings: MailSettings; mailer?: Mailer }): MailOutbox {
  return new MailOutbox({
    db,
    logger,
    mailer: mailer ?? createMailer({ smtpUrl: settings.SMTP_URL, from: settings.MAIL_FROM, logger, timeoutMs: settings.MAIL_SMTP_TIMEOUT_MS }),
    maxAttempts: settings.MAIL_MAX_ATTEMPTS,
    retryBaseMs: settings.MAIL_RETRY_BASE_MS,
    pollMs: settings.MAIL_POLL_MS,
    leaseMs: 4 * settings.MAIL_SMTP_TIMEOUT_MS,
  });
}

/**
 * Runs `fn` in a transaction with a mail writer: each mail it writes is a `mail_outbox` row of that transaction,
 * so it is sent if and only if the change commits and survives a crash. `afterMail` runs after a commit that
 * wrote mail (the job's `wake`): the answer never waits for SMTP.
 */
export async function transactWithMail<T>(
  db: Knex,
  afterMail: (() => void) | undefined,
  fn: (trx: Knex.Transaction, mail: (m: OutgoingMail) => Promise<void>) => Promise<T>,
): Promise<T> {
  let wrote = false;
  const result = await db.transaction((trx) =>
    fn(trx, async (m) => {
      await mailOutboxStore.add(trx, m);
      wrote = true;
    }),
  );
  if (wrote) afterMail?.();
  return result;
}
