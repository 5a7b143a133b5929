import type { MailMessage } from './store.js';

/**
 * The mailbox pages. Everything that came in a message is escaped: a message's HTML part is shown as
 * source, never rendered, and the pages run no script (the server also sends a CSP that forbids it).
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/** Escapes text and turns http(s) links into anchors, so sign-up and reset links can be followed. */
export function linkify(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    // Punctuation that ends a sentence is not part of the link.
    const url = match[0].replace(/[.,;:!?)\]]+$/, '');
    out += escapeHtml(text.slice(last, start));
    out += `<a href="${escapeHtml(url)}" rel="noreferrer noopener">${escapeHtml(url)}</a>`;
    last = start + url.length;
  }
  return out + escapeHtml(text.slice(last));
}

function formatDate(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem; }
  header { display: flex; gap: 1rem; align-items: center; justify-content: space-between; flex-wrap: wrap; }
  h1 { font-size: 1.25rem; margin: 0; }
  h1 a { color: inherit; text-decoration: none; }
  form { display: flex; gap: .5rem; margin: 0; }
  input { padding: .3rem .5rem; min-width: 16rem; }
  table { border-collapse: collapse; width: 100%; margin-top: 1rem; }
  th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid #8884; vertical-align: top; }
  td.date { white-space: nowrap; font-variant-numeric: tabular-nums; }
  .empty { margin-top: 2rem; opacity: .7; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  pre { white-space: pre-wrap; word-break: break-word; background: #8881; padding: 1rem; border-radius: .4rem; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
  <h1><a href="/">Ledgerline mailbox</a></h1>
  <form method="get" action="/"><input type="search" name="to" placeholder="Filter by recipient" aria-label="Filter by recipient"><button type="submit">Filter</button></form>
  <form method="post" action="/clear"><button type="submit">Delete all</button></form>
</header>
${body}
</body>
</html>
`;
}

export function renderList(messages: MailMessage[], to?: string): string {
  const heading = to ? `<p>Messages to <strong>${escapeHtml(to)}</strong> · <a href="/">show all</a></p>` : '';
  if (messages.length === 0) {
    return layout(
      'Mailbox',
      `${heading}<p class="empty">No messages${to ? ' for this recipient' : ''} yet. Mail sent over SMTP to this mailbox shows up here.</p>`,
    );
  }
  const rows = messages
    .map(
      (m) => `<tr>
  <td class="date">${escapeHtml(formatDate(m.date))}</td>
  <td>${escapeHtml(m.to.join(', '))}</td>
  <td><a href="/messages/${encodeURIComponent(m.id)}">${escapeHtml(m.subject || '(no subject)')}</a></td>
</tr>`,
    )
    .join('\n');
  return layout(
    `Mailbox (${messages.length})`,
    `${heading}<table>
<thead><tr><th scope="col">Date</th><th scope="col">To</th><th scope="col">Subject</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`,
  );
}

export function renderMessage(m: MailMessage): string {
  const text = m.text ? `<pre>${linkify(m.text)}</pre>` : '<p class="empty">This message has no plain-text part; its HTML source is below.</p>';
  const html =
    m.html === null ? '' : `<details${m.text ? '' : ' open'}><summary>HTML part (source, not rendered)</summary><pre>${escapeHtml(m.html)}</pre></details>`;
  return layout(
    m.subject || '(no subject)',
    `<p><a href="/">← All messages</a></p>
<h2>${escapeHtml(m.subject || '(no subject)')}</h2>
<dl>
  <dt>From</dt><dd>${escapeHtml(m.from)}</dd>
  <dt>To</dt><dd>${escapeHtml(m.to.join(', '))}</dd>
  <dt>Date</dt><dd>${escapeHtml(formatDate(m.date))}</dd>
  <dt>JSON</dt><dd><a href="/api/messages/${encodeURIComponent(m.id)}">/api/messages/${escapeHtml(m.id)}</a></dd>
</dl>
${text}
${html}`,
  );
}

export function renderNotFound(): string {
  return layout(
    'Not found',
    '<p class="empty">No such message: it may have been deleted, or pushed out by newer mail.</p><p><a href="/">← All messages</a></p>',
  );
}
