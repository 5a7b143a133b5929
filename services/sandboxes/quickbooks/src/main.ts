// `npm start`: the sandbox on QUICKBOOKS_SANDBOX_PORT (default 8092).
import { startQuickBooksSandbox } from './index.js';

const sandbox = await startQuickBooksSandbox({
  port: Number(process.env.QUICKBOOKS_SANDBOX_PORT ?? 8092),
  host: process.env.QUICKBOOKS_SANDBOX_HOST ?? '127.0.0.1',
  clientId: process.env.QUICKBOOKS_SANDBOX_CLIENT_ID || undefined,
  clientSecret: process.env.QUICKBOOKS_SANDBOX_CLIENT_SECRET || undefined,
});
process.stdout.write(`quickbooks sandbox listening on ${sandbox.url} (client_id ${sandbox.clientId}, default realm ${sandbox.defaultRealmId})\n`);

const stop = (): void => {
  void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
