import { createTransport, type Transporter } from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMailbox, type MailMessage, type Mailbox } from '../src/index.js';

let mailbox: Mailbox;
let smtp: Transporter;

interface Mail {
  to: string | string[];
  subject: string;
  text?: string;
  html?: string;
  cc?: string;
  bcc?: string;
}

async function send(mail: Mail, via: Transporter = smtp): Promise<void> {
  await via.sendMail({ from: 'Ledgerline <no-reply@ledgerline.test>', ...mail });
}

async function api<T>(path: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const res = await fetch(`${mailbox.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function page(path: string): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(`${mailbox.url}${path}`);
  return { status: res.status, html: await res.text(), headers: res.headers };
}

function transportFor(box: Mailbox): Transporter {
  return createTransport({ host: '127.0.0.1', port: box.smtpPort, secure: false, ignoreTLS: true });
}

beforeAll(async () => {
  mailbox = await startMailbox({ smtpPort: 0, httpPort: 0 });
  smtp = transportFor(mailbox);
});

afterAll(async () => {
  smtp?.close();
  await mailbox?.close();
});

beforeEach(async () => {
  const cleared = await fetch(`${mailbox.url}/api/messages`, { method: 'DELETE' });
  expect(cleared.status).toBe(204);
});

describe('startMailbox', () => {
  it('binds real ports when asked for port 0 and reports its URL', () => {
    expect(mailbox.smtpPort).toBeGreaterThan(0);
    expect(mailbox.httpPort).toBeGreaterThan(0);
    expect(mailbox.smtpPort).not.toBe(mailbox.httpPort);
    expect(mailbox.url).toBe(`http://127.0.0.1:${mailbox.httpPort}`);
  });

  it('keeps mail sent over SMTP and serves it through the API, filtered by recipient case-insensitively', async () => {
    await send({ to: 'Alice@Example.com', subject: 'Your code is 123456', text: 'Use 123456 to sign in.', html: '<p>Use <b>123456</b> to sign in.</p>' });
    await send({ to: 'bob@example.com', subject: 'Welcome, Bob', text: 'Hello Bob' });

    const { status, body } = await api<MailMessage[]>('/api/messages?to=alice@EXAMPLE.com');
    expect(status).toBe(200);
    expect(body).toHaveLength(1);
    const [message] = body;
    expect(message).toMatchObject({
      from: '"Ledgerline" <no-reply@ledgerline.test>',
      subject: 'Your code is 123456',
      html: '<p>Use <b>123456</b> to sign in.</p>',
    });
    // nodemailer lower-cases the domain; the local part keeps its spelling.
    expect(message?.to).toEqual(['Alice@example.com']);
    expect(message?.text.trim()).toBe('Use 123456 to sign in.');
    expect(message?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(message?.date ?? ''))).toBe(false);

    const all = await api<MailMessage[]>('/api/messages');
    expect(all.body.map((m) => m.subject)).toEqual(['Welcome, Bob', 'Your code is 123456']);
    expect(mailbox.messages().map((m) => m.subject)).toEqual(['Welcome, Bob', 'Your code is 123456']);
    expect((await api<MailMessage[]>('/api/messages?to=nobody@example.com')).body).toEqual([]);
  });

  it('lists newest first and counts Cc and Bcc recipients as recipients', async () => {
    await send({ to: 'carol@example.com', subject: 'first' });
    await send({ to: 'dave@example.com', cc: 'carol@example.com', subject: 'second' });
    await send({ to: 'erin@example.com', bcc: 'CAROL@example.com', subject: 'third' });

    const { body } = await api<MailMessage[]>('/api/messages?to=carol@example.com');
    expect(body.map((m) => m.subject)).toEqual(['third', 'second', 'first']);
    expect(body[1]?.to).toEqual(['dave@example.com', 'carol@example.com']);
    expect(body[0]?.text).toBe('');
    expect(body[0]?.html).toBeNull();
  });

  it('serves one message by id and answers 404 for an unknown one', async () => {
    await send({ to: 'frank@example.com', subject: 'Reset your password', text: 'Reset: http://localhost:3000/reset?token=abc' });
    const [listed] = (await api<MailMessage[]>('/api/messages')).body;
    expect(listed).toBeDefined();

    const one = await api<MailMessage>(`/api/messages/${listed?.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(listed);

    const missing = await api<{ message: string }>('/api/messages/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Message not found');
  });

  it('clears every message on DELETE /api/messages', async () => {
    await send({ to: 'gina@example.com', subject: 'one' });
    expect((await api<MailMessage[]>('/api/messages')).body).toHaveLength(1);

    const res = await fetch(`${mailbox.url}/api/messages`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect((await api<MailMessage[]>('/api/messages')).body).toEqual([]);
    expect(mailbox.messages()).toEqual([]);
  });

  it('renders the mailbox page with date, recipient and subject', async () => {
    await send({ to: 'hana@example.com', subject: 'Invoice INV-0042 is ready', text: 'Your invoice.' });

    const { status, html, headers } = await page('/');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/html/);
    expect(headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).toContain('Invoice INV-0042 is ready');
    expect(html).toContain('hana@example.com');
    expect(html).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);

    const filtered = await page('/?to=HANA@example.com');
    expect(filtered.html).toContain('Invoice INV-0042 is ready');
    expect((await page('/?to=other@example.com')).html).not.toContain('Invoice INV-0042 is ready');
  });

  it('escapes HTML in subjects and bodies instead of rendering it', async () => {
    await send({
      to: 'ivan@example.com',
      subject: '<script>alert("subject")</script> & <b>bold</b>',
      text: 'Click <img src=x onerror=alert(1)> then https://app.example.com/verify?token=a&b=c.',
      html: '<p onclick="alert(2)">Hi</p><script>alert(3)</script>',
    });

    const list = await page('/');
    expect(list.html).toContain('&lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(list.html).not.toContain('<script>');
    expect(list.html).not.toContain('<b>bold</b>');

    const [message] = mailbox.messages();
    const detail = await page(`/messages/${message?.id}`);
    expect(detail.status).toBe(200);
    expect(detail.html).not.toContain('<script>');
    expect(detail.html).not.toContain('<img');
    expect(detail.html).not.toContain('<p onclick');
    expect(detail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(detail.html).toContain('&lt;p onclick=&quot;alert(2)&quot;&gt;Hi&lt;/p&gt;');
    // Links in the text part can be followed; the sentence's full stop is not part of the link.
    expect(detail.html).toContain('<a href="https://app.example.com/verify?token=a&amp;b=c" rel="noreferrer noopener">');
    expect(detail.html).not.toContain('<iframe');

    expect((await page('/messages/does-not-exist')).status).toBe(404);
  });

  it('keeps at most maxMessages, dropping the oldest', async () => {
    const small = await startMailbox({ smtpPort: 0, httpPort: 0, maxMessages: 2 });
    const transport = transportFor(small);
    try {
      for (const subject of ['one', 'two', 'three']) await send({ to: 'jo@example.com', subject }, transport);
      expect(small.messages().map((m) => m.subject)).toEqual(['three', 'two']);
    } finally {
      transport.close();
      await small.close();
    }
  });

  it('rejects a port that is already taken', async () => {
    await expect(startMailbox({ smtpPort: mailbox.smtpPort, httpPort: 0 })).rejects.toThrow(/EADDRINUSE/);
  });
});
