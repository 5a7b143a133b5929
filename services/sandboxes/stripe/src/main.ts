// `npm start`: the sandbox on STRIPE_SANDBOX_PORT (default 12111).
import { startStripeSandbox } from './index.js';

const port = Number(process.env.STRIPE_SANDBOX_PORT ?? 12111);
const sandbox = await startStripeSandbox({
  port,
  host: process.env.STRIPE_SANDBOX_HOST ?? '127.0.0.1',
  secretKey: process.env.STRIPE_SANDBOX_SECRET_KEY || undefined,
  clientId: process.env.STRIPE_SANDBOX_CLIENT_ID || undefined,
});
process.stdout.write(`stripe sandbox listening on ${sandbox.url} (client_id ${sandbox.clientId})\n`);

const stop = (): void => {
  void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
