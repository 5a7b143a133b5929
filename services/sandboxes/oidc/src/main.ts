// `npm start`: the sandbox on OIDC_SANDBOX_PORT (default 9010), accepting OIDC_SANDBOX_CLIENT_IDS.
import { startOidcSandbox } from './index.js';

const sandbox = await startOidcSandbox({
  port: Number(process.env.OIDC_SANDBOX_PORT ?? 9010),
  host: process.env.OIDC_SANDBOX_HOST ?? '127.0.0.1',
  clientIds: (process.env.OIDC_SANDBOX_CLIENT_IDS ?? 'ledgerline-local.apps.googleusercontent.com').split(','),
  issuer: process.env.OIDC_SANDBOX_ISSUER || undefined,
  keyFile: process.env.OIDC_SANDBOX_KEY_FILE || undefined,
});
process.stdout.write(`google (OpenID Connect) sandbox listening on ${sandbox.url}\n`);

const stop = (): void => {
  void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
