// `npm start` as a newcomer runs it: everything comes up, the URL is printed, the pieces are wired to each
// other, and Ctrl+C stops it cleanly. Ports are moved by PORT_OFFSET so a running copy does not collide.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, expect, it } from 'vitest';
import { SERVICES } from '@ledgerline/platform/registry';

// The default ports run from 1025 to 9000: moved by 14,000–23,390 they stay below 32768, where Linux starts handing
// out ephemeral ports to outgoing connections (other test files' connections took one of them once: EADDRINUSE).
const OFFSET = 14_000 + Math.floor(Math.random() * 940) * 10;
const port = (base: number) => base + OFFSET;
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    // The whole process group: tsx runs start.ts in a child process of its own, which a SIGKILL of tsx alone leaves
    // running, holding every port (a failed run once left one listening for the next run to collide with).
    const exited = once(child, 'exit');
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
  }
});

it('starts every piece, prints the URL, and stops on Ctrl+C', async () => {
  child = spawn('node_modules/.bin/tsx', ['--conditions=ledgerline-source', 'scripts/start.ts'], {
    env: { ...process.env, PORT_OFFSET: String(OFFSET) },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so afterAll can stop tsx and the start.ts process under it together.
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 120_000;
  while (!output.includes('Ledgerline is running')) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output.slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const webUrl = `http://localhost:${port(3000)}`;
  expect(output).toContain(`Web app     ${webUrl}`);

  const page = await fetch(`${webUrl}/login`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<div id="root">');
  const config = (await (await fetch(`${webUrl}/config.json`)).json()) as {
    apiUrl: string;
    remotes: { settings: string; accounting: string; reports: string };
    plaid: { sandboxUrl: string };
    google: { authorizationUrl: string };
  };
  expect(config).toEqual({
    apiUrl: `http://localhost:${port(4000)}`,
    remotes: {
      settings: `http://localhost:${port(3001)}/mf-manifest.json`,
      accounting: `http://localhost:${port(3002)}/mf-manifest.json`,
      reports: `http://localhost:${port(3003)}/mf-manifest.json`,
    },
    plaid: { mode: 'sandbox', sandboxUrl: `http://localhost:${port(8090)}` },
    google: { clientId: 'ledgerline-local.apps.googleusercontent.com', authorizationUrl: `http://localhost:${port(9010)}/o/oauth2/v2/auth` },
  });
  // "Continue with Google" goes to the Google sign-in sandbox on its registry port: its account page answers.
  const google = new URL(config.google.authorizationUrl);
  google.search = new URLSearchParams({
    client_id: 'ledgerline-local.apps.googleusercontent.com',
    redirect_uri: `${webUrl}/oauth/google`,
    response_type: 'id_token',
    scope: 'openid email',
    nonce: 'n',
    state: 's',
  }).toString();
  expect((await fetch(google)).status).toBe(200);
  expect((await fetch(config.remotes.settings)).status).toBe(200);
  expect((await fetch(config.remotes.accounting)).status).toBe(200);
  expect((await fetch(config.remotes.reports)).status).toBe(200);
  const ready = await fetch(`${config.apiUrl}/readyz`);
  expect(await ready.json()).toMatchObject({ status: 'ready', service: 'gateway' });
  // Every service is up, each ready by its own database.
  for (const s of SERVICES) {
    const own = await fetch(`http://127.0.0.1:${port(s.port)}/readyz`);
    expect(await own.json(), s.name).toMatchObject({ status: 'ready', service: s.name, checks: { database: 'ok' } });
  }
  // The QuickBooks sandbox the integrations service talks to runs on its registry port.
  expect(await (await fetch(`http://127.0.0.1:${port(8092)}/ledgerline/health`)).json()).toEqual({ ok: true });
  // Banking and the ledger answer through the gateway (a signed-out call is refused by the gateway, not lost).
  expect((await fetch(`${config.apiUrl}/accounts`)).status).toBe(401);
  expect((await fetch(`${config.apiUrl}/categories`)).status).toBe(401);
  // The gateway lets the web app's origin in, and reaches identity and its database.
  const answer = await fetch(`${config.apiUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: webUrl },
    body: JSON.stringify({ email: '', password: '' }),
  });
  expect(answer.status).toBe(400);
  expect(answer.headers.get('access-control-allow-origin')).toBe(webUrl);
  expect(((await answer.json()) as { errors: unknown[] }).errors).toContainEqual({ field: 'email', message: 'Email cannot be empty' });
  expect((await fetch(`http://127.0.0.1:${port(8025)}/api/messages`)).status).toBe(200);

  child.kill('SIGINT');
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(0);
}, 150_000);
