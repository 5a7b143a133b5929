import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { createRequestHandler } from './http.js';
import { MessageStore, type MailMessage } from './store.js';

export type { MailMessage } from './store.js';

export interface MailboxOptions {
  /** SMTP port; 0 picks a free one. */
  smtpPort: number;
  /** HTTP port of the page and the JSON API; 0 picks a free one. */
  httpPort: number;
  /** Interface both servers bind to. */
  host?: string;
  /** Messages kept in memory; the oldest are dropped beyond this. */
  maxMessages?: number;
}

export interface Mailbox {
  /** The ports actually bound (differ from the options when those were 0). */
  smtpPort: number;
  httpPort: number;
  /** Base URL of the mailbox page, e.g. http://127.0.0.1:8025. */
  url: string;
  /** The messages held, newest first (a copy). */
  messages(): MailMessage[];
  /** Deletes every message. */
  clear(): void;
  close(): Promise<void>;
}

/** Largest message accepted, in bytes. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  if (!field) return [];
  return (Array.isArray(field) ? field : [field])
    .flatMap((o) => o.value.flatMap((a) => [a.address, ...(a.group ?? []).map((g) => g.address)]))
    .filter((a): a is string => !!a);
}

/** Case-insensitive de-duplication that keeps the first spelling seen. */
function unique(addresses: string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((a) => {
    const key = a.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function toMessage(parsed: ParsedMail, session: SMTPServerSession): MailMessage {
  const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
  const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  return {
    id: randomUUID(),
    from: parsed.from?.text || envelopeFrom,
    // The envelope is who the message was delivered to (Bcc included); headers are the fallback.
    to: unique(envelopeTo.length > 0 ? envelopeTo : [...addressesOf(parsed.to), ...addressesOf(parsed.cc)]),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : null,
    date: new Date().toISOString(),
  };
}

function listen(
  server: {
    listen(port: number, host: string, cb: () => void): unknown;
    once(event: 'error', cb: (err: Error) => void): unknown;
    off(event: 'error', cb: (err: Error) => void): unknown;
  },
  port: number,
  host: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function boundPort(server: Server | SMTPServer['server']): number {
  return (server.address() as AddressInfo).port;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts the local mail catcher: an SMTP server that accepts any message without TLS or
 * authentication, and an HTTP server with a mailbox page and a JSON API over the same messages.
 */
export async function startMailbox({ smtpPort, httpPort, host = '127.0.0.1', maxMessages = 500 }: MailboxOptions): Promise<Mailbox> {
  const store = new MessageStore(maxMessages);

  const smtp = new SMTPServer({
    name: 'ledgerline-mailbox',
    banner: 'Ledgerline mailbox: local development only, nothing is delivered',
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    secure: false,
    size: MAX_MESSAGE_BYTES,
    logger: false,
    // Let close() finish quickly even when a client keeps a connection open.
    closeTimeout: 1_000,
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      simpleParser(stream)
        .then((parsed) => {
          if (stream.sizeExceeded) {
            callback(Object.assign(new Error(`Message exceeds the ${MAX_MESSAGE_BYTES} byte limit`), { responseCode: 552 }));
            return;
          }
          store.add(toMessage(parsed, session));
          callback();
        })
        .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
    },
  });
  // A broken client connection must not take the process down.
  smtp.on('error', () => undefined);

  const http = createServer(createRequestHandler(store));

  try {
    await listen(smtp.server, smtpPort, host);
    await listen(http, httpPort, host);
  } catch (err) {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    http.close();
    throw err;
  }

  const actualHttpPort = boundPort(http);
  let closing: Promise<void> | undefined;

  return {
    smtpPort: boundPort(smtp.server),
    httpPort: actualHttpPort,
    url: `http://${urlHost(host)}:${actualHttpPort}`,
    messages: () => store.list(),
    clear: () => store.clear(),
    close() {
      closing ??= Promise.all([
        new Promise<void>((resolve) => smtp.close(() => resolve())),
        new Promise<void>((resolve, reject) => {
          http.close((err) => (err ? reject(err) : resolve()));
          http.closeAllConnections();
        }),
      ]).then(() => undefined);
      return closing;
    },
  };
}
