import { newId } from '@ledgerline/platform';
import type { Db } from './identity-store.js';

/** What a flow writes: one mail, its kind (for logs and metrics; the body is never logged). */
export interface MailRowInput {
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: string;
}

export interface MailRow extends MailRowInput {
  id: string;
  attempts: number;
  created_at: Date;
}

/** How long a claimed row stays out of other claims; past it, a crashed sender's row is due again. */
const interval = (ms: number) => `${Math.max(0, Math.round(ms))} milliseconds`;

/**
 * The mail outbox (migration 20261127200000). Rows are written in the flow's transaction; the job claims
 * them on the system role's pool. Times are the database's clock, so every replica agrees on what is due.
 */
export const mailOutbox = {
  /** Writes one mail in the caller's transaction: it is sent if and only if that transaction commits. */
  add: (db: Db, mail: MailRowInput) => db('mail_outbox').insert({ id: newId(), to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, kind: mail.kind }),

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
    db('mail_outbox').where({ id }).whereNull('sent_at').update({ next_attempt_at: db.raw('now() + ?::interval', [interval(delayMs)]), last_error: error }),

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
