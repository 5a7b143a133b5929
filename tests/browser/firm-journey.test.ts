// The accounting firm's journey in real Chromium against the real stack (issue #16 "Must show"), all through the
// screens: a firm owner signs up as a firm, verifies the mailed code, onboards, lands on Home (/select-organization),
// adds two client organizations, invites an accountant to one of them from Settings → Team Management; the
// accountant (a new user, another browser) follows the mailed link, sets a password, opens the organization and
// categorises a transaction in it; the owner removes their access, and the accountant's very next action is
// refused with the product's message, without a crash and without a screen that pretends it worked. The only
// calls made outside the browser read the local mailbox and seed the client's bank (the Plaid sandbox, as every
// browser test of the books does). Layout asserted at 1280 and 390 px; screenshots in
// test-results/screenshots/firm-journey-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, uniqueEmail, type System } from '../support/system.js';
import {
  boxOf,
  field,
  importBankTransactions,
  launchBrowser,
  nextMailedCode,
  notice,
  openPage,
  startFirmWebSystem,
  STEP_MS,
  TEST_MS,
  visible,
  waitForPath,
  settledLayout,
} from './support.js';

let system: System & { webUrl: string; plaid: NonNullable<System['plaid']> };
let browser: Browser;
const SHOTS = 'test-results/screenshots';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: STEP_MS });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [system, browser] = await Promise.all([startFirmWebSystem(), launchBrowser()]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

interface Stored {
  auth?: { accessToken?: string };
  user?: { selectedWorkspaceId?: string | null; selectedOrganizationId?: string | null; workspaces?: Array<{ id: string; organizationName?: string }> };
}
const stored = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('ledgerline') ?? '{}') as Stored);

/** Nothing scrolls sideways: the document is no wider than the window. */
async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, `${where}: the page is ${scroll}px wide in a ${client}px window`).toBeLessThanOrEqual(client);
}

/** The element lies wholly inside the window. */
async function expectInsideWindow(page: Page, locator: Locator, what: string): Promise<void> {
  const box = await boxOf(locator, what);
  const { width, height } = page.viewportSize() ?? DESKTOP;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box.y, `${what}: top edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(width + 0.5);
  expect(box.y + box.height, `${what}: bottom edge`).toBeLessThanOrEqual(height + 0.5);
}

/** The open dialog fits the window at both sizes, nothing scrolls sideways; a screenshot of each. */
async function dialogFits(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await settledLayout(page);
    await expectInsideWindow(page, page.locator('[data-dialog-panel]').last(), `the ${name} dialog at ${viewport.width}px`);
    await expectNoHorizontalScroll(page, `the ${name} dialog at ${viewport.width}px`);
    await page.screenshot({ path: `${SHOTS}/firm-journey-${name}-dialog-${size}.png` });
  }
  await page.setViewportSize(DESKTOP);
}

/** The screen at 390 px: nothing scrolls sideways; a full-page screenshot; back to the desktop size. */
async function phoneFits(page: Page, name: string): Promise<void> {
  await page.setViewportSize(PHONE);
  await settledLayout(page);
  await expectNoHorizontalScroll(page, `${name} at 390px`);
  await page.screenshot({ path: `${SHOTS}/firm-journey-${name}-390.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}

const cards = (page: Page) => page.getByRole('region', { name: 'Client organizations' }).getByRole('button');
const firmRow = (page: Page, table: string, text: string) => page.getByRole('table', { name: table, exact: true }).getByRole('row').filter({ hasText: text });
/** The review tab's rows that can still be categorised (a category dropdown). */
const reviewRows = (page: Page) => page.locator('tbody tr[data-transaction-id]').filter({ has: page.getByRole('combobox', { name: /^Category of / }) });

/** Picks `option` in a row's category dropdown by typing part of it, as a person does. */
async function categorise(page: Page, line: Locator, search: string, option: string): Promise<void> {
  await line.getByRole('combobox', { name: /^Category of / }).fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('the firm journey', () => {
  it(
    'a firm signs up, adds two clients, invites an accountant who categorises in one; once their access is removed, their next action is refused',
    async () => {
      const ownerEmail = uniqueEmail('firm-journey-owner');
      const accountantEmail = uniqueEmail('firm-journey-accountant');
      const owner = await openPage(browser, system.webUrl);
      const accountant = await openPage(browser, system.webUrl);
      const o = owner.page;
      const a = accountant.page;
      try {
        // Sign-up as an accounting firm.
        await o.goto('/signup');
        await visible(o.getByRole('heading', { name: 'Create your account' }));
        await o.getByRole('radio', { name: 'Accounting firm' }).check();
        await field(o, 'First Name').fill('Grace');
        await field(o, 'Middle Name').fill('B');
        await field(o, 'Last Name').fill('Hopper');
        await field(o, 'Firm Name').fill('Hopper Journey Partners');
        await field(o, 'Country').fill('United States');
        await field(o, 'Team Size').fill('5');
        await field(o, 'Email').fill(ownerEmail);
        await field(o, 'Password').fill(PASSWORD);
        await o.getByRole('button', { name: 'Create account' }).click();
        await waitForPath(o, '/verify-otp');
        await field(o, 'Verification code').fill(await nextMailedCode(ownerEmail, 0));
        await o.getByRole('button', { name: 'Verify', exact: true }).click();

        // Onboarding: sign-up already told it the firm's name.
        await waitForPath(o, '/onboard');
        await visible(o.getByRole('heading', { name: 'Welcome, Grace' }));
        expect(await field(o, 'Company Name').inputValue()).toBe('Hopper Journey Partners');
        await field(o, 'Your Role').fill('Partner');
        await field(o, 'Phone Number').fill('5551234567');
        await field(o, 'City').fill('Arlington');
        await field(o, 'Country').fill('US');
        await o.getByRole('button', { name: /How did you hear about us\?/ }).click();
        await o.getByRole('listbox').getByRole('option', { name: 'Accounting Firm', exact: true }).click();
        await o.getByRole('button', { name: 'Continue' }).click();

        // Home: a firm user without a selected organization sees only Home.
        await waitForPath(o, '/select-organization');
        const nav = o.getByRole('navigation', { name: 'Main' });
        await visible(nav.getByRole('link', { name: 'Home' }));
        expect(await nav.getByRole('link').count()).toBe(1);
        await visible(o.getByRole('heading', { name: 'No client organizations yet' }));
        await phoneFits(o, 'home-empty');

        // Two client organizations, from Home's dialog.
        for (const name of ['Alder Bakery', 'Birch Dental']) {
          await o.getByRole('button', { name: 'Add organization' }).first().click();
          const dialog = o.getByRole('dialog');
          await visible(dialog.getByRole('heading', { name: 'Add a client organization' }));
          if (name === 'Alder Bakery') await dialogFits(o, 'add-organization');
          await field(o, 'Organization name').fill(name);
          await dialog.getByRole('button', { name: 'Add organization' }).click();
          await poll(() => o.getByRole('dialog').count()).toBe(0);
          await visible(cards(o).filter({ hasText: name }));
        }
        await phoneFits(o, 'home-two-clients');
        const alder = (await stored(o)).user?.workspaces?.find((w) => w.organizationName === 'Alder Bakery');
        if (!alder) throw new Error("the shell does not list Alder Bakery's workspace");

        // The client's bank, seeded as the books' browser tests do (the Plaid sandbox through the link flow's call).
        const ownerToken = (await stored(o)).auth?.accessToken;
        if (!ownerToken) throw new Error('the owner has no session token');
        const imported = await importBankTransactions(system, ownerToken, 8, 11, alder.id);
        expect(imported).toBeGreaterThan(0);

        // Settings → Team Management: invite an accountant with access to Alder Bakery only.
        await o.getByRole('button', { name: 'User menu' }).click();
        await o.getByRole('menuitem', { name: 'Settings' }).click();
        await waitForPath(o, '/settings');
        await o.getByRole('tab', { name: 'Team Management' }).click();
        await poll(() => new URL(o.url()).searchParams.get('tab')).toBe('firm-team-management');
        await visible(firmRow(o, 'Firm members', ownerEmail).getByText('Owner', { exact: true }));
        await phoneFits(o, 'team-management');
        await o.getByRole('button', { name: 'Invite team member' }).click();
        const invite = o.getByRole('dialog', { name: 'Invite team member' });
        await invite.getByRole('button', { name: /^Role/ }).click();
        await o.getByRole('listbox').getByRole('option', { name: 'Accountant', exact: true }).click();
        await field(o, 'Email').fill(accountantEmail);
        await field(o, 'First Name').fill('Alan');
        await field(o, 'Last Name').fill('Turing');
        await invite.getByRole('checkbox', { name: 'Alder Bakery' }).check();
        expect(await invite.getByRole('checkbox', { name: 'Birch Dental' }).isChecked()).toBe(false);
        await dialogFits(o, 'invite');
        await invite.getByRole('button', { name: 'Send invite' }).click();
        await visible(notice(o, 'status', 'Invite sent'));
        await visible(firmRow(o, 'Firm invites', accountantEmail).getByText('Pending', { exact: true }));

        // The mail arrives in the local mailbox; the accountant, a new user, sets a password from its link.
        const mail = await system.mailTo(accountantEmail, /^Join Hopper Journey Partners/);
        const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+&kind=firm/.exec(mail.text ?? '')?.[0];
        if (!link) throw new Error(`no firm invite link in "${mail.text}"`);
        await a.goto(`/verify-invite${new URL(link).search}`);
        await visible(a.getByRole('heading', { name: 'Welcome, Alan' }));
        await field(a, 'Password').fill(PASSWORD);
        await field(a, 'Confirm password').fill(PASSWORD);
        await a.getByRole('button', { name: 'Set password and join' }).click();
        await visible(notice(a, 'status', 'Your password has been set.'));
        await waitForPath(a, '/select-organization');

        // They see only the organization they were given, and open it.
        await visible(cards(a).filter({ hasText: 'Alder Bakery' }));
        expect(await cards(a).filter({ hasText: 'Birch Dental' }).count()).toBe(0);
        await phoneFits(a, 'accountant-home');
        await cards(a).filter({ hasText: 'Alder Bakery' }).click();
        await waitForPath(a, '/dashboard');
        await poll(async () => (await stored(a)).user?.selectedWorkspaceId).toBe(alder.id);

        // They categorise a transaction of Alder Bakery's bank.
        await a.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transactions' }).click();
        await waitForPath(a, '/transactions');
        await visible(a.getByRole('heading', { name: 'Transactions', level: 1 }));
        const first = await visible(reviewRows(a).first());
        const firstId = await first.getAttribute('data-transaction-id');
        await categorise(a, first, 'ren', 'Rent');
        await visible(notice(a, 'status', 'Transaction has been updated successfully.'));
        const booked = await system.api('GET', `/transactions/v2/${firstId}`, { token: ownerToken, workspace: alder.id });
        expect(booked.body.category?.name).toBe('Rent');
        await a.screenshot({ path: `${SHOTS}/firm-journey-accountant-categorised-1280.png` });

        // The owner removes their access to Alder Bakery.
        await o.reload();
        const member = await visible(firmRow(o, 'Firm members', accountantEmail));
        await visible(member.getByRole('cell', { name: 'Alder Bakery', exact: true }));
        await member.getByRole('button', { name: 'Alan Turing', exact: true }).click();
        const access = o.getByRole('dialog', { name: 'Alan Turing' });
        await visible(access.getByRole('heading'));
        await dialogFits(o, 'member-access');
        await access.getByRole('checkbox', { name: 'Alder Bakery' }).uncheck();
        await access.getByRole('button', { name: 'Save', exact: true }).click();
        await visible(notice(o, 'status', 'Access updated'));
        await poll(() => firmRow(o, 'Firm members', accountantEmail).getByRole('cell', { name: 'Alder Bakery', exact: true }).count()).toBe(0);

        // The accountant's next action, on the screen still open: refused with the product's message; the transaction
        // is not shown as categorised, and the app leaves the books they may no longer open for Home, where nothing is left.
        const second = reviewRows(a)
          .filter({ hasNot: a.locator(`[data-transaction-id="${firstId}"]`) })
          .nth(1);
        const secondId = await second.getAttribute('data-transaction-id');
        expect(secondId).not.toBe(firstId);
        const before = await system.api('GET', `/transactions/v2/${secondId}`, { token: ownerToken, workspace: alder.id });
        const refusals: number[] = [];
        a.on('response', (response) => {
          if (response.request().method() === 'PATCH' && new URL(response.url()).pathname.startsWith('/transactions')) refusals.push(response.status());
        });
        await categorise(a, a.locator(`tr[data-transaction-id="${secondId}"]`), 'ren', 'Rent');
        await visible(notice(a, 'alert', 'Workspace not found'));
        expect(refusals).toEqual([404]);
        await waitForPath(a, '/select-organization');
        await visible(a.getByRole('heading', { name: 'No client organizations yet' }));
        await a.screenshot({ path: `${SHOTS}/firm-journey-accountant-refused-1280.png` });
        expect(await a.getByText('Alder Bakery').count()).toBe(0);
        // Told once, though the screen that made the call is gone.
        expect(await a.getByRole('alert').filter({ hasText: 'Workspace not found' }).count()).toBe(1);
        expect(await notice(a, 'status', 'Transaction has been updated successfully.').count()).toBeLessThanOrEqual(1);
        await poll(async () => (await stored(a)).user?.selectedWorkspaceId ?? null).toBeNull();
        const after = await system.api('GET', `/transactions/v2/${secondId}`, { token: ownerToken, workspace: alder.id });
        expect(after.body.category).toEqual(before.body.category);

        // A reload, or the books typed in the address bar: still Home, with nothing to open.
        await a.reload();
        await waitForPath(a, '/select-organization');
        await visible(a.getByRole('heading', { name: 'No client organizations yet' }));
        expect(await cards(a).count()).toBe(0);
        await a.goto('/transactions?tab=review');
        await waitForPath(a, '/select-organization');
        await phoneFits(a, 'accountant-removed');
      } finally {
        await owner.context.close();
        await accountant.context.close();
      }
    },
    TEST_MS * 4,
  );
});
