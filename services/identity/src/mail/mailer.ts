import { escapeHtml, type OutgoingMail as QueuedMail } from '@ledgerline/platform';

export { createMailer, type Mailer, type MailMessage } from '@ledgerline/platform';

/** Which template a mail came from (kept on its outbox row and in logs; the body never is). */
export type MailKind = 'code' | 'reset' | 'account-exists' | 'invite' | 'password-changed';

/** A mail a flow decides to send: written to the chassis' mail outbox in its transaction. */
export interface OutgoingMail extends QueuedMail {
  kind: MailKind;
}

function layout(title: string, body: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827;max-width:480px;margin:auto;padding:24px">
<h2 style="margin:0 0 16px">${escapeHtml(title)}</h2>${body}
<p style="color:#6b7280;font-size:12px;margin-top:32px">Ledgerline · bookkeeping for startups and their accountants</p></body></html>`;
}

export const templates = {
  code(to: string, code: string): OutgoingMail {
    return {
      kind: 'code',
      to,
      subject: `${code} is your Ledgerline verification code`,
      text: `Your Ledgerline verification code is ${code}. It expires in 10 minutes. If you did not try to sign in, you can ignore this email.`,
      html: layout(
        'Your verification code',
        `<p>Enter this code to continue:</p><p style="font-size:28px;letter-spacing:6px;font-weight:700">${code}</p><p>It expires in 10 minutes. If you did not try to sign in, you can ignore this email.</p>`,
      ),
    };
  },
  reset(to: string, link: string): OutgoingMail {
    return {
      kind: 'reset',
      to,
      subject: 'Reset your Ledgerline password',
      text: `Reset your password with this link (valid for 30 minutes, once): ${link}\nIf you did not ask for this, ignore this email; your password stays as it is.`,
      html: layout(
        'Reset your password',
        `<p><a href="${escapeHtml(link)}">Choose a new password</a> (valid for 30 minutes, once).</p><p>If you did not ask for this, ignore this email; your password stays as it is.</p>`,
      ),
    };
  },
  /** Sign-up with an email that already has an account: the answer is the usual one, this goes by mail. */
  accountExists(to: string, loginLink: string, resetLink: string): OutgoingMail {
    return {
      kind: 'account-exists',
      to,
      subject: 'You already have a Ledgerline account',
      text: `Someone (hopefully you) tried to create a Ledgerline account with this email, which already has one. Sign in here: ${loginLink}\nForgot your password? Reset it here: ${resetLink}\nIf this was not you, you can ignore this email.`,
      html: layout(
        'You already have an account',
        `<p>Someone (hopefully you) tried to create a Ledgerline account with this email, which already has one.</p><p><a href="${escapeHtml(loginLink)}">Sign in</a> · <a href="${escapeHtml(resetLink)}">Reset your password</a></p><p>If this was not you, you can ignore this email.</p>`,
      ),
    };
  },
  /** An invite to an organization's workspaces; the link opens /verify-invite. */
  invite(to: string, input: { organizationName: string; inviterName: string; role: string; link: string; expiresOn: string }): OutgoingMail {
    const who = input.inviterName || 'A teammate';
    return {
      kind: 'invite',
      to,
      subject: `You are invited to ${input.organizationName} on Ledgerline`,
      text: `${who} invited you to join ${input.organizationName} on Ledgerline as ${input.role}. Accept the invite here: ${input.link}\nThe link works once and expires on ${input.expiresOn}. If you did not expect this, you can ignore this email.`,
      html: layout(
        `Join ${input.organizationName}`,
        `<p>${escapeHtml(who)} invited you to join <b>${escapeHtml(input.organizationName)}</b> on Ledgerline as ${escapeHtml(input.role)}.</p><p><a href="${escapeHtml(input.link)}">Accept the invite</a></p><p>The link works once and expires on ${escapeHtml(input.expiresOn)}. If you did not expect this, you can ignore this email.</p>`,
      ),
    };
  },
  passwordChanged(to: string): OutgoingMail {
    return {
      kind: 'password-changed',
      to,
      subject: 'Your Ledgerline password was changed',
      text: 'The password of your Ledgerline account was just changed. If this was not you, reset your password now and contact support.',
      html: layout(
        'Your password was changed',
        '<p>The password of your Ledgerline account was just changed. If this was not you, reset your password now and contact support.</p>',
      ),
    };
  },
};
