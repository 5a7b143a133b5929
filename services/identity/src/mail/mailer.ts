import nodemailer from 'nodemailer';
import type { Logger } from '@ledgerline/platform';

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
 * SMTP when SMTP_URL is set (production, and the local mail catcher in development); otherwise the
 * message is only logged, so a developer can still read the code.
 */
export function createMailer({ smtpUrl, from, logger }: { smtpUrl: string; from: string; logger: Logger }): Mailer {
  if (!smtpUrl) {
    return {
      async send(message) {
        logger.warn({ to: message.to, subject: message.subject, text: message.text }, 'SMTP_URL not set: mail logged, not sent');
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(title: string, body: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827;max-width:480px;margin:auto;padding:24px">
<h2 style="margin:0 0 16px">${escapeHtml(title)}</h2>${body}
<p style="color:#6b7280;font-size:12px;margin-top:32px">Ledgerline · bookkeeping for startups and their accountants</p></body></html>`;
}

export const templates = {
  code(to: string, code: string): MailMessage {
    return {
      to,
      subject: `${code} is your Ledgerline verification code`,
      text: `Your Ledgerline verification code is ${code}. It expires in 10 minutes. If you did not try to sign in, you can ignore this email.`,
      html: layout('Your verification code', `<p>Enter this code to continue:</p><p style="font-size:28px;letter-spacing:6px;font-weight:700">${code}</p><p>It expires in 10 minutes. If you did not try to sign in, you can ignore this email.</p>`),
    };
  },
  reset(to: string, link: string): MailMessage {
    return {
      to,
      subject: 'Reset your Ledgerline password',
      text: `Reset your password with this link (valid for 30 minutes, once): ${link}\nIf you did not ask for this, ignore this email; your password stays as it is.`,
      html: layout('Reset your password', `<p><a href="${escapeHtml(link)}">Choose a new password</a> (valid for 30 minutes, once).</p><p>If you did not ask for this, ignore this email; your password stays as it is.</p>`),
    };
  },
  passwordChanged(to: string): MailMessage {
    return {
      to,
      subject: 'Your Ledgerline password was changed',
      text: 'The password of your Ledgerline account was just changed. If this was not you, reset your password now and contact support.',
      html: layout('Your password was changed', '<p>The password of your Ledgerline account was just changed. If this was not you, reset your password now and contact support.</p>'),
    };
  },
};
