// `npm start`: the sandbox on PLAID_SANDBOX_PORT (default 8090).
import { startPlaidSandbox } from './index.js';

const port = Number(process.env.PLAID_SANDBOX_PORT ?? 8090);
const sandbox = await startPlaidSandbox({
  port,
  host: process.env.PLAID_SANDBOX_HOST ?? '127.0.0.1',
  clientId: process.env.PLAID_SANDBOX_CLIENT_ID || undefined,
  secret: process.env.PLAID_SANDBOX_SECRET || undefined,
});
process.stdout.write(`plaid sandbox listening on ${sandbox.url} (client_id ${sandbox.clientId})\n`);

const stop = (): void => {
  void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
