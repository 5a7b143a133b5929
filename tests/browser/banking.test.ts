// The banking screens in real Chromium against the real stack: banking with the Plaid sandbox behind the
// gateway. A user links a sandbox bank from /connect-accounts (the development link flow: the sandbox's
// institutions, completed through the sandbox, then POST /accounts), sees the spec §4 import notices while
// the sync job runs and when it is done, sees the accounts listed, removes one after confirming, and the
// dashboard polls sync jobs only while one is in progress.
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, signedUpUser, startSystem, PASSWORD, type System } from '../support/system.js';
import { inFreshPage, launchBrowser, logInThroughForm, notice, STEP_MS, TEST_MS, visible, waitForPath } from './support.js';

let system: System & { webUrl: string };
let browser: Browser;

beforeAll(async () => {
  const [started, launched] = await Promise.all([
    startSystem({
      web: true,
      banking: true,
      // As in startWebSystem: argon2id on a busy machine can pass the production identity deadline; and a
      // link (token exchange, accounts, rows and events in one transaction) can pass the 3 s service deadline
      // when the browser suites run side by side. The deadlines have their own tests in tests/api.
      gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000', SERVICE_TIMEOUT_MS: '15000' },
      bankingEnv: {
        WEBHOOK_SYNC_DELAY_MS: '200',
        // A failed sync page waits 3 s before its retry: long enough to watch the dashboard poll a delayed job.
        SYNC_RETRY_BASE_MS: '3000',
        // A delivery no worker acknowledged comes back after 5 s, not the production 30 s.
        SYNC_ACK_WAIT_MS: '5000',
      },
    }),
    launchBrowser(),
  ]);
  browser = launched;
  if (started.webUrl === null || started.plaid === null) {
    await started.stop();
    throw new Error('startSystem({ web: true, banking: true }) served no web app or no Plaid sandbox');
  }
  system = { ...started, webUrl: started.webUrl };
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

async function onboardedUser(): Promise<string> {
  const { email, token } = await signedUpUser(system);
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  return email;
}

const isJobsCall = (request: Request, kind: 'import' | 'in-progress'): boolean => {
  const url = new URL(request.url());
  if (url.pathname !== '/jobs' || !url.href.startsWith(system.gatewayUrl)) return false;
  return kind === 'import' ? url.searchParams.has('accountId') : url.searchParams.has('status');
};

/** Links First Platypus Bank through the sandbox from /connect-accounts. */
async function linkFirstPlatypus(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Connect a bank' }).click();
  await visible(page.getByRole('heading', { name: 'Choose your bank' }));
  await page.getByRole('radio', { name: /First Platypus Bank/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('banking screens', () => {
  it(
    'links a sandbox bank from /connect-accounts, shows Importing then Import Complete!, and lists the accounts',
    async () => {
      const email = await onboardedUser();
      await inFreshPage(browser, system.webUrl, async (page) => {
        const links: unknown[] = [];
        page.on('request', (request) => {
          if (request.method() === 'POST' && request.url() === `${system.gatewayUrl}/accounts`) links.push(request.postDataJSON());
        });
        await logInThroughForm(page, email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await visible(page.getByText('No bank accounts connected'));
        await page.getByRole('link', { name: 'Connect accounts' }).click();
        await waitForPath(page, '/connect-accounts');
        await visible(page.getByRole('heading', { name: 'Connect Accounts', level: 1 }));

        // The first answer about the import's jobs is held back until the 'Importing' notice has been seen:
        // a 500-transaction sync can finish faster than a screenshot.
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route(
          (url) => url.pathname === '/jobs' && url.searchParams.has('accountId'),
          async (route) => {
            await held;
            await route.continue();
          },
        );
        await linkFirstPlatypus(page);
        const importing = await visible(notice(page, 'status', 'Please wait while we finish uploading'));
        expect(await importing.getByText('Importing', { exact: true }).count()).toBe(1);
        release();
        await page.unroute((url) => url.pathname === '/jobs' && url.searchParams.has('accountId'));

        // POST /accounts carried what the sandbox's Link answered (spec §3 Bank account link).
        expect(links).toHaveLength(1);
        expect(links[0]).toMatchObject({
          publicToken: expect.stringMatching(/^public-sandbox-/) as unknown,
          institution: { name: 'First Platypus Bank', institution_id: 'ins_109508' },
          ignoreDuplicateAccounts: false,
        });
        expect((links[0] as { accounts: { mask: string }[] }).accounts.map((a) => a.mask)).toEqual(['0000', '1111', '3333']);

        // The accounts, by bank, with their kind and mask.
        const bank = page.getByRole('region', { name: 'First Platypus Bank' });
        await visible(bank.getByRole('listitem', { name: 'Plaid Checking •••• 0000' }));
        await visible(bank.getByRole('listitem', { name: 'Plaid Saving •••• 1111' }));
        const card = await visible(bank.getByRole('listitem', { name: 'Plaid Credit Card •••• 3333' }));
        await visible(card.getByText(/^Credit card · /));

        // The job finishes: the notice says so and View opens the transactions to review.
        const complete = await visible(notice(page, 'status', 'Click here to review and save them'));
        expect(await complete.getByText('Import Complete!', { exact: true }).count()).toBe(1);
        await visible(bank.getByText(/Checking · Last synced .* ago/));
        await complete.getByRole('button', { name: 'View' }).click();
        await waitForPath(page, '/transactions');
        expect(new URL(page.url()).searchParams.get('tab')).toBe('review');

        // The dashboard shows the accounts; with no sync in progress it asks for jobs once and does not poll.
        await expect.poll(() => jobsInProgress(page), { timeout: STEP_MS }).toBe(0);
        const inProgressCalls: string[] = [];
        page.on('request', (request) => {
          if (isJobsCall(request, 'in-progress')) inProgressCalls.push(request.url());
        });
        await page.getByRole('link', { name: 'Dashboard' }).first().click();
        await waitForPath(page, '/dashboard');
        await visible(page.getByText('Cash in bank'));
        await visible(page.getByText('Plaid Checking'));
        await page.waitForTimeout(5_000); // three poll intervals: none may happen
        expect(inProgressCalls).toHaveLength(1);
      });
    },
    TEST_MS,
  );

  it(
    'polls the dashboard while a sync job is waiting or active, and stops when none remains',
    async () => {
      const email = await onboardedUser();
      await inFreshPage(browser, system.webUrl, async (page) => {
        await logInThroughForm(page, email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await page.goto('/connect-accounts');
        await linkFirstPlatypus(page);
        await visible(notice(page, 'status', 'Click here to review and save them'));
        const checking = await visible(page.getByRole('listitem', { name: 'Plaid Checking •••• 0000' }));

        // The next sync of this bank fails once at Plaid, so its job waits 3 s (delayed) before the retry.
        const item = system.plaid!.listItems().at(-1)!;
        system.plaid!.failNext({ error: 'INTERNAL_SERVER_ERROR', endpoint: '/transactions/sync', item: item.item_id });
        await checking.getByRole('button', { name: 'Sync Plaid Checking' }).click();
        await visible(notice(page, 'status', 'Syncing all your latest transactions'));

        const calls: string[] = [];
        page.on('request', (request) => {
          if (isJobsCall(request, 'in-progress')) calls.push(request.url());
        });
        await page.getByRole('link', { name: 'Dashboard' }).first().click();
        await waitForPath(page, '/dashboard');
        const syncing = await visible(page.getByRole('status').filter({ hasText: /^Syncing transactions from your bank/ }));
        // Polled until the job is done, then the dashboard stops asking.
        await syncing.waitFor({ state: 'detached' });
        expect(await jobsInProgress(page)).toBe(0);
        expect(calls.length).toBeGreaterThanOrEqual(2);
        expect(calls.every((url) => new URL(url).searchParams.get('status') === 'waiting,delayed,active')).toBe(true);
        await page.waitForTimeout(500);
        const settled = calls.length;
        await page.waitForTimeout(5_000); // more than two poll intervals
        expect(calls.length).toBe(settled);
      });
    },
    TEST_MS,
  );

  it(
    'in production configuration opens Plaid Link from cdn.plaid.com with the link token and links what it returns',
    async () => {
      const email = await onboardedUser();
      await inFreshPage(browser, system.webUrl, async (page) => {
        // The server's /config.json says production; Plaid's script is replaced by a stand-in that plays the
        // user's part through the sandbox and answers onSuccess as Plaid Link does.
        await page.route(`${system.webUrl}/config.json`, async (route) => {
          const config = (await (await route.fetch()).json()) as Record<string, unknown>;
          await route.fulfill({ json: { ...config, plaid: { mode: 'production', env: 'production' } } });
        });
        const created: string[] = [];
        await page.exposeFunction('plaidCreated', (token: string) => created.push(token));
        await page.route('https://cdn.plaid.com/link/v2/stable/link-initialize.js', (route) =>
          route.fulfill({
            contentType: 'text/javascript',
            body: `window.Plaid = { create: function (options) {
            window.plaidCreated(options.token);
            return {
              open: function () {
                fetch(${JSON.stringify(`${system.plaid!.url}/ledgerline/link/complete`)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ link_token: options.token, institution_id: 'ins_109509' }) })
                  .then(function (r) { return r.json(); })
                  .then(function (a) { options.onSuccess(a.public_token, a.metadata); });
              },
              destroy: function () {},
            };
          } };`,
          }),
        );
        await logInThroughForm(page, email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await page.goto('/connect-accounts');
        await page.getByRole('button', { name: 'Connect a bank' }).click();
        const bank = page.getByRole('region', { name: 'First Gingham Credit Union' });
        await visible(bank.getByRole('listitem', { name: 'Gingham Checking •••• 4321' }));
        await visible(bank.getByRole('listitem', { name: 'Gingham Savings •••• 8765' }));
        expect(created).toHaveLength(1);
        expect(created[0]).toMatch(/^link-sandbox-/);
        // No sandbox bank chooser in production configuration.
        expect(await page.getByRole('heading', { name: 'Choose your bank' }).count()).toBe(0);
      });
    },
    TEST_MS,
  );

  it(
    'asks to reconnect a bank that needs a new sign-in, and reconnects it through the update-mode link',
    async () => {
      const email = await onboardedUser();
      await inFreshPage(browser, system.webUrl, async (page) => {
        await logInThroughForm(page, email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await page.goto('/connect-accounts');
        await linkFirstPlatypus(page);
        await visible(notice(page, 'status', 'Click here to review and save them'));

        // The bank ends the login: Plaid's ITEM_LOGIN_REQUIRED webhook reaches banking through the gateway.
        const item = system.plaid!.listItems().at(-1)!;
        const delivery = await system.plaid!.requireRelogin(item.item_id);
        expect(delivery?.status).toBe(200);
        await page.reload();
        const checking = await visible(page.getByRole('listitem', { name: 'Plaid Checking •••• 0000' }));
        await visible(checking.getByText('Reconnect required: the bank needs you to sign in again'));

        const updateTokens: unknown[] = [];
        page.on('request', (request) => {
          if (request.url() === `${system.gatewayUrl}/plaid/update-token`) updateTokens.push(request.postDataJSON());
        });
        await checking.getByRole('button', { name: 'Reconnect' }).click();
        await visible(page.getByRole('heading', { name: 'Reconnect First Platypus Bank' }));
        await page.getByRole('dialog').getByRole('button', { name: 'Reconnect' }).click();
        await visible(notice(page, 'status', 'Syncing all your latest transactions'));
        // The repaired login syncs; the finished sync clears the flag and the list shows it.
        await checking.getByText('Reconnect required: the bank needs you to sign in again').waitFor({ state: 'detached' });
        await visible(checking.getByText(/Last synced .* ago/));
        expect(updateTokens).toHaveLength(1);
        expect(updateTokens[0]).toEqual({ accountId: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown });
        expect(system.plaid!.getItem(item.item_id).login_required).toBe(false);
      });
    },
    TEST_MS,
  );

  it(
    'removes an account after a confirmation, and Cancel keeps it',
    async () => {
      const email = await onboardedUser();
      await inFreshPage(browser, system.webUrl, async (page) => {
        await logInThroughForm(page, email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await page.goto('/connect-accounts');
        await linkFirstPlatypus(page);
        const saving = await visible(page.getByRole('listitem', { name: 'Plaid Saving •••• 1111' }));

        await saving.getByRole('button', { name: 'Remove Plaid Saving' }).click();
        await visible(page.getByRole('heading', { name: 'Remove Plaid Saving •••• 1111?' }));
        await page.getByRole('button', { name: 'Cancel' }).click();
        await page.getByRole('heading', { name: 'Remove Plaid Saving •••• 1111?' }).waitFor({ state: 'detached' });
        await visible(saving);

        await saving.getByRole('button', { name: 'Remove Plaid Saving' }).click();
        await page.getByRole('button', { name: 'Remove account' }).click();
        await visible(notice(page, 'status', 'Bank account removed'));
        await saving.waitFor({ state: 'detached' });
        await page.reload();
        await visible(page.getByRole('listitem', { name: 'Plaid Checking •••• 0000' }));
        expect(await page.getByRole('listitem', { name: 'Plaid Saving •••• 1111' }).count()).toBe(0);
      });
    },
    TEST_MS,
  );
});

/** The session the page holds (the shell persists it under the root key 'ledgerline'). */
async function sessionOf(page: Page): Promise<{ auth: { accessToken: string }; user: { selectedWorkspaceId: string } }> {
  return page.evaluate(
    () => JSON.parse(window.localStorage.getItem('ledgerline') ?? '{}') as { auth: { accessToken: string }; user: { selectedWorkspaceId: string } },
  );
}

/** Sync jobs of the page's workspace still waiting, delayed or active, asked of the gateway directly. */
async function jobsInProgress(page: Page): Promise<number> {
  const session = await sessionOf(page);
  const answer = await system.api('GET', '/jobs?status=waiting,delayed,active', {
    token: session.auth.accessToken,
    workspace: session.user.selectedWorkspaceId,
  });
  if (answer.status !== 200) throw new Error(`GET /jobs answered ${answer.status}`);
  return (answer.body.jobs as unknown[]).length;
}
