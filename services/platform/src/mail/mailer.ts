import nodemailer from 'nodemailer';
import type { Logger } from '../logger.js';

/** One mail as a service's templates write it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * The one SMTP sender of every service that mails (identity's codes and invites, the firm's invites): SMTP when
 * SMTP_URL is set (production, and the local mailbox in development); otherwise the mail is only logged, so a
 * developer can still read it. Every SMTP wait is bounded (an outbox job's lease on a row must outlast one send).
 */
export function createMailer({ smtpUrl, from, logger, timeoutMs = 30_000 }: { smtpUrl: string; from: string; logger: Logger; timeoutMs?: number }): Mailer {
  if (!smtpUrl) {
    return {
      async send(message) {
        logger.warn({ to: message.to, subject: message.subject, text: message.text }, 'SMTP_URL not set: mail logged, not sent (development only)');
      },
    };
  }
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
  return {
    async send({ to, subject, text, html }) {
      await transport.sendMail({ from, to, subject, text, html });
    },
  };
}

/** Text made safe to place in a mail's HTML. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
