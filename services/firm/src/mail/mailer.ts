import { escapeHtml, type OutgoingMail } from '@ledgerline/platform';

/** The firm invite: the link carries the single-use secret; it works for 7 days. Written to the mail outbox in the invite's transaction. */
export function firmInviteMail(
  to: string,
  { firmName, inviterName, role, link, expiresOn }: { firmName: string; inviterName: string; role: string; link: string; expiresOn: string },
): OutgoingMail {
  const who = inviterName ? `${inviterName} invited you` : 'You are invited';
  return {
    kind: 'firm-invite',
    to,
    subject: `Join ${firmName} on Ledgerline`,
    text: `${who} to join the accounting firm ${firmName} on Ledgerline as ${role}. Accept with this link (valid until ${expiresOn}, once): ${link}`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827;max-width:480px;margin:auto;padding:24px"><h2>Join ${escapeHtml(firmName)}</h2><p>${escapeHtml(who)} to join the accounting firm ${escapeHtml(firmName)} as ${escapeHtml(role)}.</p><p><a href="${escapeHtml(link)}">Accept the invite</a> (valid until ${escapeHtml(expiresOn)}, once).</p></body></html>`,
  };
}
