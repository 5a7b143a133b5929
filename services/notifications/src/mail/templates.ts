import { escapeHtml, type OutgoingMail } from '@ledgerline/platform';
import type { NewNotification } from '../domain/notifications.js';

/** The mail of a notification a user wants by mail: the sentence and one link into the web app. */
export function notificationMail(to: string, n: NewNotification, webUrl: string): OutgoingMail {
  const link = `${webUrl.replace(/\/+$/, '')}${n.redirectUrl}`;
  const subject = n.type === 'comment_tagged' ? 'You were tagged in a comment on Ledgerline' : 'A bank connection needs you on Ledgerline';
  const action = n.type === 'comment_tagged' ? 'Open the transaction' : 'Reconnect the bank';
  const footer = 'You get this mail because of your notification settings; turn it off under Notifications in the bell.';
  return {
    kind: `notification_${n.type}`,
    to,
    subject,
    text: `${n.message}\n\n${action}: ${link}\n\n${footer}\n`,
    html: `<p>${escapeHtml(n.message)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p><p style="color:#666">${escapeHtml(footer)}</p>`,
  };
}
