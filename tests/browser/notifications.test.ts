// The live bell (issue #21, decision 0040) in real Chromium against the real stack (identity, ledger, notifications,
// NATS, the built web app): Ada tags her teammate Grace in a transaction's comment through the drawer's tag picker;
// Grace, signed in on another browser, sees her bell's count rise without reloading, opens the panel and follows the
// notification to the transaction's drawer, which marks it read; "Mark all read" clears a later one. The bell and its
// panel lie inside the window at 1280 and 390 px, without sideways scrolling; screenshots go to
// test-results/screenshots/notifications-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@ledgerline/platform/testing';
import { bankingFor } from '../../services/ledger/test/support.js';
import { onboardBody, PASSWORD, signedUpUser, startSystem, uniqueEmail, type System } from '../support/system.js';
import {
  expectInsideWindow,
  expectNoHorizontalScroll,
  launchBrowser,
  logInThroughForm,
  notice,
  openPage,
  settledBox,
  settledLayout,
  TEST_MS,
  visible,
  waitForPath,
} from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let system: System & { webUrl: string };
let browser: Browser;
let ada: { email: string; token: string; workspace: string };
let grace: { email: string; userId: string };
let txnId: string;
const MERCHANT = 'Paper Supply Co';

beforeAll(async () => {
  const started = await startSystem({
    web: true,
    banking: true,
    ledger: true,
    notifications: true,
    gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000', SERVICE_TIMEOUT_MS: '15000' },
  });
  if (started.webUrl === null) throw new Error('startSystem({ web: true }) served no web app');
  system = { ...started, webUrl: started.webUrl };
  browser = await launchBrowser();
  const a = await signedUpUser(system);
  expect((await system.api('POST', '/onboard-user', { token: a.token, body: onboardBody })).status).toBe(200);
  ada = { email: a.email, token: a.token, workspace: a.user.workspace.id };
  // One bank transaction, as banking would publish it.
  const banking = bankingFor(system.bus, ada.workspace);
  await banking.add(await banking.link(), { amountCents: -4_250, name: MERCHANT, merchantName: MERCHANT });
  // Grace joins by invite.
  const email = uniqueEmail('grace');
  const sent = await system.api('POST', '/send-invite', {
    token: ada.token,
    workspace: ada.workspace,
    body: { email, role: 'Accountant', firstName: 'Grace', lastName: 'Hopper' },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+/.exec((await system.mailTo(email, /invited to/)).text ?? '')?.[0];
  const accepted = await system.api('POST', '/verify-invite', {
    body: { token: new URL(link!).searchParams.get('token'), password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  grace = { email, userId: accepted.body.user.id };
  txnId = await expectEventually(
    async () => {
      const r = await system.api('GET', '/transactions/v2?take=10', { token: ada.token, workspace: ada.workspace });
      expect(r.body.data).toHaveLength(1);
      return r.body.data[0].id as string;
    },
    { timeoutMs: 30_000 },
  );
  await expectEventually(
    async () => expect((await system.api('GET', '/transactions/taggable-users', { token: ada.token, workspace: ada.workspace })).body.data).toHaveLength(2),
    { timeoutMs: 30_000 },
  );
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const count = (page: Page) => page.getByTestId('notification-count');

/** The bell and the open panel lie inside the window; the page does not scroll sideways; a screenshot. */
async function checkLayout(page: Page, name: string): Promise<void> {
  await settledLayout(page);
  const panel = page.getByTestId('notifications-panel');
  await settledBox(panel, 'the notifications panel');
  await expectInsideWindow(page, bell(page), `the bell at ${name}`);
  await expectInsideWindow(page, panel, `the notifications panel at ${name}`);
  await expectNoHorizontalScroll(page, `the open bell at ${name}`);
  await page.screenshot({ path: new URL(`notifications-${name}.png`, SCREENSHOTS).pathname });
}

describe('the notification bell', () => {
  it(
    'rises live when a teammate tags you, and leads to the transaction; mark all read clears it; fits at 1280 and 390 px',
    async () => {
      const adas = await openPage(browser, system.webUrl);
      const graces = await openPage(browser, system.webUrl);
      try {
        const [pa, pg] = [adas.page, graces.page];
        await pg.setViewportSize(DESKTOP);
        await logInThroughForm(pg, grace.email, PASSWORD);
        await waitForPath(pg, '/dashboard');
        await visible(bell(pg));
        // Her inviter's notifications are not hers: she starts with none.
        await expect.poll(() => count(pg).count()).toBe(0);
        // A marker on the page: it survives only if the page is never reloaded.
        await pg.evaluate(() => Object.assign(globalThis, { __notReloaded: true }));

        // Ada tags Grace through the drawer's tag picker.
        await logInThroughForm(pa, ada.email, PASSWORD);
        await waitForPath(pa, '/dashboard');
        await pa.goto(`/transactions?tab=all&txn=${txnId}`);
        const drawer = await visible(pa.getByRole('dialog', { name: MERCHANT }));
        const comments = drawer.getByRole('region', { name: 'Comments' });
        await comments.getByRole('textbox', { name: 'Add a comment' }).fill('Grace, was this the toner order?');
        const search = comments.getByRole('combobox', { name: 'Tag users' });
        await search.click();
        await search.fill('Grace');
        await pa.getByRole('option', { name: /Grace Hopper/ }).click();
        await pa.keyboard.press('Escape');
        await visible(comments.getByRole('list', { name: 'Users to tag' }).getByText('@Grace Hopper'));
        await comments.getByRole('button', { name: 'Post comment' }).click();
        await visible(notice(pa, 'status', 'Posted Comment Succesfully'));

        // Grace's bell rises without a reload.
        await expect.poll(() => count(pg).textContent(), { timeout: 15_000 }).toBe('1');
        await expect(pg.evaluate(() => (globalThis as { __notReloaded?: boolean }).__notReloaded)).resolves.toBe(true);
        await expect(bell(pg).getAttribute('aria-label')).resolves.toBe('Notifications, 1 unread');

        await bell(pg).click();
        const item = await visible(pg.getByRole('button', { name: /Ada Lovelace tagged you in a comment: “Grace, was this the toner order\?”/ }));
        await checkLayout(pg, 'desktop');

        // Following it opens the transaction's drawer and marks it read.
        await item.click();
        await waitForPath(pg, '/transactions');
        expect(new URL(pg.url()).searchParams.get('txn')).toBe(txnId);
        await visible(pg.getByRole('dialog', { name: MERCHANT }));
        await visible(pg.getByRole('dialog', { name: MERCHANT }).getByText('Grace, was this the toner order?', { exact: true }));
        await expect.poll(() => count(pg).count()).toBe(0);
        await pg.keyboard.press('Escape');

        // At 390 px: a second tag arrives live; the panel fits the phone; "Mark all read" clears the count.
        await pg.setViewportSize(PHONE);
        const again = await system.api('POST', '/transactions/comment', {
          token: ada.token,
          workspace: ada.workspace,
          body: { transactionId: txnId, comment: 'And the receipt, please', taggedUsers: [grace.userId] },
        });
        expect(again.status).toBe(200);
        await expect.poll(() => count(pg).textContent(), { timeout: 15_000 }).toBe('1');
        await bell(pg).click();
        await visible(pg.getByRole('button', { name: /And the receipt, please/ }));
        await checkLayout(pg, 'phone');
        await pg.getByRole('button', { name: 'Mark all read' }).click();
        await expect.poll(() => count(pg).count()).toBe(0);
        expect(await pg.getByRole('button', { name: 'Mark all read' }).isDisabled()).toBe(true);
        await pg.screenshot({ path: new URL('notifications-phone-all-read.png', SCREENSHOTS).pathname });
      } finally {
        await adas.context.close();
        await graces.context.close();
      }
    },
    TEST_MS * 2,
  );
});
