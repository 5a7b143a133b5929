/**
 * Runs the mail catcher on its own:
 *   MAILBOX_SMTP_PORT (default 1025), MAILBOX_HTTP_PORT (default 8025), MAILBOX_HOST (default 127.0.0.1).
 * Point services at it with SMTP_URL=smtp://127.0.0.1:1025 and open the printed URL.
 */
import { startMailbox } from './index.js';

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`mailbox: ${name} must be a port number (0-65535), got "${raw}"`);
    process.exit(1);
  }
  return value;
}

const mailbox = await startMailbox({
  smtpPort: port('MAILBOX_SMTP_PORT', 1025),
  httpPort: port('MAILBOX_HTTP_PORT', 8025),
  host: process.env.MAILBOX_HOST || '127.0.0.1',
});

process.stdout.write(`mailbox: ${mailbox.url} (SMTP on port ${mailbox.smtpPort}; nothing is delivered)\n`);

let stopping = false;
const stop = () => {
  if (stopping) process.exit(1);
  stopping = true;
  mailbox.close().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error('mailbox: stop failed', err);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
