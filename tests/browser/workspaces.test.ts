// Workspaces and organizations in real Chromium against the real stack (issue #16 items 5–6): the top bar's
// switcher moves every request and every figure to the chosen workspace and survives a reload; /login-workspace
// resumes after login; a firm user picks a client organization on /select-organization; a workspace invite sets a
// password and signs in. Layout asserted at 1280 and 390 px; screenshots in test-results/screenshots/workspaces-*.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, uniqueEmail, type System } from '../support/system.js';
import {
  boxOf,
  descriptionOf,
  field,
  importBankTransactions,
  inFreshPage,
  launchBrowser,
  logInOnThisPage,
  logInThroughForm,
  notice,
  startFirmWebSystem,
  STEP_MS,
  TEST_MS,
  visible,
  waitForPath,
} from './support.js';

let system: System & { webUrl: string; plaid: NonNullable<System['plaid']> };
let browser: Browser;
const SHOTS = 'test-results/screenshots';
/** Polls for as long as a step may take (a busy machine slows transitions and answers alike). */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: STEP_MS });

/** An onboarded business user with the sandbox bank's transactions in the first workspace and an empty second one. */
let owner: { email: string; token: string; first: string; second: string };

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [system, browser] = await Promise.all([startFirmWebSystem(), launchBrowser()]);
  const a = await signedUpUser(system);
  expect((await system.api('POST', '/onboard-user', { token: a.token, body: onboardBody })).status).toBe(200);
  await importBankTransactions(system, a.token, 12);
  const created = await system.api('POST', '/workspace', { token: a.token, workspace: a.user.workspace.id, body: { name: 'Second Books' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  owner = { email: a.email, token: a.token, first: a.user.workspace.id, second: created.body.workspace.id as string };
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

/** The workspace header of every call the page makes to the gateway from now on, in order. */
function recordWorkspaceHeaders(page: Page): Array<{ path: string; workspace: string | undefined }> {
  const seen: Array<{ path: string; workspace: string | undefined }> = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(system.gatewayUrl) || request.method() === 'OPTIONS') return;
    seen.push({ path: new URL(request.url()).pathname, workspace: request.headers()['x-workspace-id'] });
  });
  return seen;
}

const switcher = (page: Page) => page.getByRole('button', { name: /^Switch workspace/ });
const cashInBank = (page: Page) => page.getByTestId('cash-in-bank');
const stored = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('ledgerline') ?? '{}') as { user?: { selectedWorkspaceId?: string; selectedOrganizationId?: string } });

/** The switcher's panel is inside the viewport and at least as wide as its button; nothing scrolls sideways. */
async function expectSwitcherLayout(page: Page, viewport: { width: number; height: number }): Promise<void> {
  const trigger = await boxOf(switcher(page), 'the switcher button');
  const panel = await boxOf(await visible(page.getByTestId('workspace-switcher-panel')), 'the switcher panel');
  expect(panel.x).toBeGreaterThanOrEqual(0);
  expect(panel.y).toBeGreaterThanOrEqual(0);
  expect(panel.x + panel.width).toBeLessThanOrEqual(viewport.width);
  expect(panel.y + panel.height).toBeLessThanOrEqual(viewport.height);
  expect(panel.width).toBeGreaterThanOrEqual(trigger.width - 0.5);
  expect(trigger.x + trigger.width).toBeLessThanOrEqual(viewport.width);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
}

describe('the workspace switcher', () => {
  it(
    'switches by keyboard and by mouse; the dashboard and every request follow the chosen workspace, and a reload keeps it',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        const calls = recordWorkspaceHeaders(page);
        await logInThroughForm(page, owner.email, PASSWORD);
        await waitForPath(page, '/dashboard');
        const firstCash = (await visible(cashInBank(page))).textContent();
        const cashText = await firstCash;
        expect(cashText).toMatch(/\$/);
        await poll(() => calls.some((c) => c.path === '/accounts' && c.workspace === owner.first)).toBe(true);

        // Keyboard: Enter opens the switcher on the current workspace; arrows reach the other; Enter chooses it.
        await switcher(page).focus();
        await page.keyboard.press('Enter');
        const list = await visible(page.getByRole('listbox', { name: 'Workspaces' }));
        await expectSwitcherLayout(page, { width: 1280, height: 800 });
        // The current workspace is marked, both are grouped under the organization.
        expect(await list.getByRole('option', { selected: true }).count()).toBe(1);
        await visible(list.getByRole('group', { name: 'Analytical Co' }).getByRole('option', { name: /Second Books/ }));
        await page.screenshot({ path: `${SHOTS}/workspaces-switcher-1280.png` });
        const second = list.getByRole('option', { name: /Second Books/ });
        for (let i = 0; i < 3 && (await second.getAttribute('data-active')) === null; i++) await page.keyboard.press('ArrowDown');
        expect(await second.getAttribute('data-active')).not.toBeNull();
        const before = calls.length;
        await page.keyboard.press('Enter');

        // The empty workspace: no bank figure from the first one stays on screen; every call now carries it.
        await visible(page.getByText('No bank accounts connected'));
        expect(await cashInBank(page).count()).toBe(0);
        await poll(() => switcher(page).getAttribute('aria-label')).toBe('Switch workspace (current: Second Books)');
        const after = calls.slice(before);
        expect(after.some((c) => c.path === '/accounts')).toBe(true);
        expect(after.filter((c) => c.workspace !== owner.second)).toEqual([]);
        expect((await stored(page)).user?.selectedWorkspaceId).toBe(owner.second);

        // A reload keeps the choice.
        const beforeReload = calls.length;
        await page.reload();
        await visible(page.getByText('No bank accounts connected'));
        await poll(() => switcher(page).getAttribute('aria-label')).toBe('Switch workspace (current: Second Books)');
        expect(calls.slice(beforeReload).filter((c) => c.workspace !== owner.second)).toEqual([]);

        // Mouse: back to the first workspace and its figure.
        await switcher(page).click();
        await page.getByRole('option', { name: /Analytical Co/ }).click();
        expect(await (await visible(cashInBank(page))).textContent()).toBe(cashText);
        expect(calls.at(-1)?.workspace).toBe(owner.first);

        // A phone: the switcher fits the top bar and its panel the screen.
        await page.setViewportSize({ width: 390, height: 844 });
        await switcher(page).click();
        await visible(page.getByRole('listbox', { name: 'Workspaces' }));
        await expectSwitcherLayout(page, { width: 390, height: 844 });
        await page.screenshot({ path: `${SHOTS}/workspaces-switcher-390.png` });
        await page.keyboard.press('Escape');
        await poll(() => page.getByRole('listbox', { name: 'Workspaces' }).count()).toBe(0);
      });
    },
    TEST_MS,
  );
});

describe('a long list of workspaces', () => {
  it(
    'the switcher offers a search that filters as you type (organization or workspace name); Enter opens the match',
    async () => {
      const user = await signedUpUser(system);
      expect((await system.api('POST', '/onboard-user', { token: user.token, body: onboardBody })).status).toBe(200);
      for (const name of ['North Branch', 'South Branch', 'East Branch', 'West Branch', 'Harbor Office', 'Summit Office']) {
        const created = await system.api('POST', '/workspace', { token: user.token, workspace: user.user.workspace.id, body: { name } });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
      }
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize({ width: 390, height: 844 });
        await logInThroughForm(page, user.email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await switcher(page).click();
        const search = await visible(page.getByRole('combobox', { name: 'Search workspaces' }));
        // The search field has the focus as the list opens: typing filters at once.
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search workspaces');
        expect(await page.getByRole('option').count()).toBe(7);
        await expectSwitcherLayout(page, { width: 390, height: 844 });
        await page.keyboard.type('BRANCH');
        await poll(() => page.getByRole('option').count()).toBe(4);
        await search.fill('harbor');
        await poll(() => page.getByRole('option').count()).toBe(1);
        await page.screenshot({ path: `${SHOTS}/workspaces-switcher-search-390.png` });
        await search.fill('no such place');
        await visible(page.getByText('No workspace matches “no such place”'));
        await search.fill('harbor');
        await page.keyboard.press('Enter');
        await poll(() => switcher(page).getAttribute('aria-label')).toBe('Switch workspace (current: Harbor Office)');
        await visible(page.getByText('No bank accounts connected'));
      });
    },
    TEST_MS,
  );
});

describe('the selected workspace deleted elsewhere', () => {
  it(
    "the next load selects the organization's default workspace (spec §4) instead of failing",
    async () => {
      const user = await signedUpUser(system);
      expect((await system.api('POST', '/onboard-user', { token: user.token, body: onboardBody })).status).toBe(200);
      const created = await system.api('POST', '/workspace', { token: user.token, workspace: user.user.workspace.id, body: { name: 'Short-lived Books' } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const doomed = created.body.workspace.id as string;
      await inFreshPage(browser, system.webUrl, async (page) => {
        await logInThroughForm(page, user.email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await switcher(page).click();
        await page.getByRole('option', { name: /Short-lived Books/ }).click();
        await poll(() => switcher(page).getAttribute('aria-label')).toBe('Switch workspace (current: Short-lived Books)');
        expect((await stored(page)).user?.selectedWorkspaceId).toBe(doomed);

        // Another session of the owner deletes it.
        const deleted = await system.api('DELETE', `/workspace/${doomed}`, { token: user.token, workspace: user.user.workspace.id });
        expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
        const calls = recordWorkspaceHeaders(page);
        await page.reload();
        await poll(async () => (await stored(page)).user?.selectedWorkspaceId).toBe(user.user.workspace.id);
        await visible(page.getByText('No bank accounts connected'));
        // One workspace left: no switcher, and every call after the recovery carries the default workspace.
        await poll(() => switcher(page).count()).toBe(0);
        const recovered = calls.findIndex((c) => c.workspace === user.user.workspace.id);
        expect(recovered).toBeGreaterThanOrEqual(0);
        expect(calls.slice(recovered).filter((c) => c.workspace !== user.user.workspace.id)).toEqual([]);
      });
    },
    TEST_MS,
  );
});

describe('/login-workspace', () => {
  it(
    'signed out: to /login and back into that workspace after the code step; a workspace of someone else: a clear message and home',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        const calls = recordWorkspaceHeaders(page);
        const link = `/login-workspace?workspaceId=${owner.second}`;
        await page.goto(link);
        await waitForPath(page, '/login');
        expect(new URL(page.url()).searchParams.get('next')).toBe(link);
        await logInOnThisPage(page, owner.email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await visible(page.getByText('No bank accounts connected'));
        await poll(() => switcher(page).getAttribute('aria-label')).toBe('Switch workspace (current: Second Books)');
        expect(calls.filter((c) => c.path === '/accounts').map((c) => c.workspace)).toContain(owner.second);

        // Signed in, a link to a workspace of another company.
        const stranger = await signedUpUser(system);
        await page.goto(`/login-workspace?workspaceId=${stranger.user.workspace.id}`);
        await visible(page.getByRole('heading', { name: 'You do not have access to this workspace' }));
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
        await page.getByRole('button', { name: 'Go to your home' }).click();
        await waitForPath(page, '/dashboard');
        expect((await stored(page)).user?.selectedWorkspaceId).toBe(owner.second);
      });
    },
    TEST_MS,
  );
});

describe('/select-organization', () => {
  it(
    "a firm owner sees the firm's client organizations, searches, adds one, and opens one on its dashboard",
    async () => {
      const firmOwner = await signedUpUser(system);
      expect((await system.api('POST', '/onboard-user', { token: firmOwner.token, body: { ...onboardBody, companyName: 'Ledger & Co' } })).status).toBe(200);
      const firm = await system.api('PATCH', '/accounting-firm', { token: firmOwner.token, body: { firmName: 'Ledger & Co', country: 'US' } });
      expect(firm.status, JSON.stringify(firm.body)).toBe(200);
      const added: Record<string, { id: string; workspaceId: string }> = {};
      for (const name of ['Alpine Bakery', 'Birch Dental']) {
        const answer = await system.api('POST', '/accounting-firm/add-organization', { token: firmOwner.token, body: { name } });
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        added[name] = { id: answer.body.organization.id as string, workspaceId: answer.body.organization.workspaces[0].id as string };
      }

      await inFreshPage(browser, system.webUrl, async (page) => {
        const calls = recordWorkspaceHeaders(page);
        await logInThroughForm(page, firmOwner.email, PASSWORD);
        await page.goto('/select-organization');
        await visible(page.getByRole('heading', { name: 'Select an organization', level: 1 }));
        const cards = page.getByRole('region', { name: 'Client organizations' }).getByRole('button');
        await visible(cards.filter({ hasText: 'Alpine Bakery' }));
        await visible(cards.filter({ hasText: 'Birch Dental' }));
        expect(await cards.count()).toBe(2);
        await page.screenshot({ path: `${SHOTS}/workspaces-select-organization-1280.png`, fullPage: true });

        // Search narrows the list (case-insensitive contains).
        const search = page.getByRole('searchbox', { name: 'Search organizations' });
        await search.fill('BIRCH');
        await poll(() => cards.count()).toBe(1);
        await search.fill('');
        await poll(() => cards.count()).toBe(2);

        // The owner adds a client organization; the name is required.
        await page.getByRole('button', { name: 'Add organization' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add a client organization' });
        await visible(dialog.getByRole('heading', { name: 'Add a client organization' }));
        await dialog.getByRole('button', { name: 'Add organization' }).click();
        expect(await descriptionOf(field(page, 'Organization name'))).toBe('Organization name is required');
        await field(page, 'Organization name').fill('Cedar Studio');
        await dialog.getByRole('button', { name: 'Add organization' }).click();
        await poll(() => page.getByRole('dialog').count()).toBe(0);
        await visible(cards.filter({ hasText: 'Cedar Studio' }));

        // A phone: the cards stack, nothing scrolls sideways.
        await page.setViewportSize({ width: 390, height: 844 });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        const card = await boxOf(cards.filter({ hasText: 'Birch Dental' }), 'the Birch Dental card');
        expect(card.x).toBeGreaterThanOrEqual(0);
        expect(card.x + card.width).toBeLessThanOrEqual(390);
        await page.screenshot({ path: `${SHOTS}/workspaces-select-organization-390.png`, fullPage: true });
        await page.setViewportSize({ width: 1280, height: 800 });

        // Opening one selects it and its (only, so default) workspace, and lands on its dashboard.
        const birch = added['Birch Dental'];
        if (!birch) throw new Error('Birch Dental was not added');
        const before = calls.length;
        await cards.filter({ hasText: 'Birch Dental' }).click();
        await waitForPath(page, '/dashboard');
        await visible(page.getByText('No bank accounts connected'));
        await poll(async () => (await stored(page)).user).toMatchObject({ selectedOrganizationId: birch.id, selectedWorkspaceId: birch.workspaceId });
        await poll(() => calls.slice(before).some((c) => c.path === '/accounts' && c.workspace === birch.workspaceId)).toBe(true);
        expect(calls.slice(before).filter((c) => c.workspace !== birch.workspaceId)).toEqual([]);

        // Back on Home, the chosen organization is marked as the current one.
        await page.goto('/select-organization');
        await visible(cards.filter({ hasText: 'Birch Dental' }).and(page.locator('[aria-current="true"]')));
      });
    },
    TEST_MS,
  );
});

describe('/verify-invite', () => {
  it(
    'a new user invited to a workspace sets a password (with the spec messages), is signed in and lands on the dashboard; a used link says so',
    async () => {
      const email = uniqueEmail('invitee');
      const sent = await system.api('POST', '/send-invite', {
        token: owner.token,
        workspace: owner.first,
        body: { email, role: 'Accountant', workspaceIds: [owner.first], firstName: 'Grace', lastName: 'Hopper' },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const mail = await system.mailTo(email, /invited to/);
      const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
      if (!link) throw new Error(`no invite link in "${mail.text}"`);
      const token = new URL(link).searchParams.get('token') ?? '';

      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`/verify-invite?token=${encodeURIComponent(token)}`);
        await visible(page.getByRole('heading', { name: 'Welcome, Grace' }));
        await visible(page.getByText(email));
        const password = field(page, 'Password');
        const confirm = field(page, 'Confirm password');
        await password.fill('short');
        await confirm.fill('different');
        await page.getByRole('button', { name: 'Set password and join' }).click();
        expect(await descriptionOf(password)).toContain('Must be 8 or more characters');
        expect(await descriptionOf(confirm)).toContain('Password must match');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await page.screenshot({ path: `${SHOTS}/workspaces-verify-invite-390.png`, fullPage: true });

        await password.fill(PASSWORD);
        await confirm.fill(PASSWORD);
        await page.getByRole('button', { name: 'Set password and join' }).click();
        await visible(notice(page, 'status', 'Your password has been set.'));
        await waitForPath(page, '/dashboard');
        // Signed in, in the workspace they were invited to, with its figures.
        await visible(cashInBank(page));
        expect((await stored(page)).user?.selectedWorkspaceId).toBe(owner.first);
      });

      // The link is single-use: opened again (signed out), the server's message and a way to log in.
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.goto(`/verify-invite?token=${encodeURIComponent(token)}`);
        await visible(page.getByRole('heading', { name: 'This invitation cannot be used' }));
        await visible(page.getByRole('alert').filter({ hasText: /invalid or has expired/ }));
        await page.getByRole('link', { name: 'log in' }).click();
        await waitForPath(page, '/login');
      });
    },
    TEST_MS + STEP_MS,
  );
});

describe('/verify-invite for a firm', () => {
  it(
    'an existing user, signed in, accepts a firm invite with one click and lands on Home; the used link is refused',
    async () => {
      const firmOwner = await signedUpUser(system);
      expect((await system.api('POST', '/onboard-user', { token: firmOwner.token, body: { ...onboardBody, companyName: 'Quill Partners' } })).status).toBe(200);
      expect((await system.api('PATCH', '/accounting-firm', { token: firmOwner.token, body: { firmName: 'Quill Partners', country: 'US' } })).status).toBe(200);
      const client = await system.api('POST', '/accounting-firm/add-organization', { token: firmOwner.token, body: { name: 'Dune Outfitters' } });
      expect(client.status, JSON.stringify(client.body)).toBe(201);
      const invitee = await signedUpUser(system);
      expect((await system.api('POST', '/onboard-user', { token: invitee.token, body: onboardBody })).status).toBe(200);
      const sent = await system.api('POST', '/accounting-firm/invite', {
        token: firmOwner.token,
        body: { email: invitee.email, role: 'accountant', firstName: 'Ada', lastName: 'Lovelace', organizationIds: [client.body.organization.id] },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const mail = await system.mailTo(invitee.email, /^Join Quill Partners/);
      const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+&kind=firm/.exec(mail.text ?? '')?.[0];
      if (!link) throw new Error(`no firm invite link in "${mail.text}"`);
      const { search } = new URL(link);

      await inFreshPage(browser, system.webUrl, async (page) => {
        await logInThroughForm(page, invitee.email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await page.goto(`/verify-invite${search}`);
        await visible(page.getByRole('heading', { name: 'Join the accounting firm' }));
        await page.getByRole('button', { name: 'Accept invitation' }).click();
        await waitForPath(page, '/select-organization');
        await visible(page.getByRole('region', { name: 'Client organizations' }).getByRole('button').filter({ hasText: 'Dune Outfitters' }));
        // They are the firm's accountant now, and the link is spent.
        const me = await system.api('GET', '/accounting-firm/me', { token: invitee.token });
        expect(me.body.member).toMatchObject({ role: 'accountant' });
        await page.goto(`/verify-invite${search}`);
        await page.getByRole('button', { name: 'Accept invitation' }).click();
        await visible(page.getByRole('alert').filter({ hasText: 'This invite link is invalid or has expired' }));
      });
    },
    TEST_MS,
  );
});

describe('sign-up as an accounting firm', () => {
  it(
    'offers Business or Accounting firm; a firm names the firm and its country, with their messages, and sends them with userType firm',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize({ width: 390, height: 844 });
        const bodies: unknown[] = [];
        page.on('request', (request) => {
          if (request.method() === 'POST' && request.url() === `${system.gatewayUrl}/signup`) bodies.push(request.postDataJSON());
        });
        await page.goto('/signup');
        await visible(field(page, 'Company Name'));
        await page.getByRole('radio', { name: 'Accounting firm' }).check();
        await visible(field(page, 'Firm Name'));
        expect(await field(page, 'Company Name').count()).toBe(0);
        await page.getByRole('button', { name: 'Create account' }).click();
        expect(await descriptionOf(field(page, 'Firm Name'))).toBe('Firm name is required');
        expect(await descriptionOf(field(page, 'Country'))).toBe('Country is required');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await page.screenshot({ path: `${SHOTS}/workspaces-signup-firm-390.png`, fullPage: true });

        const email = uniqueEmail('firm');
        await field(page, 'First Name').fill('Ada');
        await field(page, 'Middle Name').fill('K');
        await field(page, 'Last Name').fill('Lovelace');
        await field(page, 'Firm Name').fill('Lovelace Accounting');
        await field(page, 'Country').fill('United States');
        await field(page, 'Team Size').fill('4');
        await field(page, 'Email').fill(email);
        await field(page, 'Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Create account' }).click();
        await waitForPath(page, '/verify-otp');
        expect(bodies).toEqual([
          expect.objectContaining({
            userType: 'firm',
            firmName: 'Lovelace Accounting',
            country: 'United States',
            companyName: 'Lovelace Accounting',
            email,
            maxTeamSize: 4,
          }),
        ]);
      });
    },
    TEST_MS,
  );
});

describe('a firm user (userType firm)', () => {
  it(
    'lands on Home with only Home in the navigation, adds and opens clients, keeps Home first; a new firm accountant sets a password from the firm invite',
    async () => {
      const email = uniqueEmail('firm-owner');
      const signup = await system.api('POST', '/signup', {
        body: {
          firstName: 'Grace',
          middleName: 'B',
          lastName: 'Hopper',
          email,
          password: PASSWORD,
          userType: 'firm',
          firmName: 'Hopper & Partners',
          country: 'US',
        },
      });
      expect(signup.status, JSON.stringify(signup.body)).toBe(201);
      const verified = await system.api('POST', '/authenticate-otp', {
        body: { methodId: signup.body.methodId, code: await system.codeFor(email), sessionToken: signup.body.sessionToken },
      });
      expect(verified.status, JSON.stringify(verified.body)).toBe(200);
      const token = verified.body.sessionToken as string;
      expect((await system.api('POST', '/onboard-user', { token, body: { ...onboardBody, companyName: 'Hopper & Partners' } })).status).toBe(200);

      let mapleId = '';
      await inFreshPage(browser, system.webUrl, async (page) => {
        await logInThroughForm(page, email, PASSWORD);
        await waitForPath(page, '/select-organization');
        const nav = page.getByRole('navigation', { name: 'Main' });
        await visible(nav.getByRole('link', { name: 'Home' }));
        expect(await nav.getByRole('link').count()).toBe(1);
        // Nothing else opens before a client is chosen.
        await page.goto('/transactions?tab=review');
        await waitForPath(page, '/select-organization');
        await visible(page.getByRole('heading', { name: 'No client organizations yet' }));
        await page.screenshot({ path: `${SHOTS}/workspaces-firm-empty-1280.png` });

        await page.getByRole('button', { name: 'Add organization' }).first().click();
        await visible(page.getByRole('dialog').getByRole('heading', { name: 'Add a client organization' }));
        await field(page, 'Organization name').fill('Harbor Books Ltd');
        await page.getByRole('dialog').getByRole('button', { name: 'Add organization' }).click();
        const cards = page.getByRole('region', { name: 'Client organizations' }).getByRole('button');
        await visible(cards.filter({ hasText: 'Harbor Books Ltd' }));
        const maple = await system.api('POST', '/accounting-firm/add-organization', { token, body: { name: 'Maple Ventures' } });
        expect(maple.status, JSON.stringify(maple.body)).toBe(201);
        mapleId = maple.body.organization.id as string;
        await page.reload();
        await visible(cards.filter({ hasText: 'Maple Ventures' }));
        // Spec §4: with exactly one organization (their first client) it was chosen for them; a second changes nothing.
        await visible(cards.filter({ hasText: 'Harbor Books Ltd' }).and(page.locator('[aria-current="true"]')));

        await cards.filter({ hasText: 'Maple Ventures' }).click();
        await waitForPath(page, '/dashboard');
        await visible(page.getByText('No bank accounts connected'));
        await poll(async () => (await stored(page)).user?.selectedOrganizationId).toBe(maple.body.organization.id);
        await visible(nav.getByRole('link', { name: 'Dashboard' }));
        expect(await nav.getByRole('link').first().textContent()).toBe('Home');
        // The switcher groups the two clients' workspaces by organization.
        await switcher(page).click();
        const list = await visible(page.getByRole('listbox', { name: 'Workspaces' }));
        await visible(list.getByRole('group', { name: 'Harbor Books Ltd' }));
        await visible(list.getByRole('group', { name: 'Maple Ventures' }));
        await page.screenshot({ path: `${SHOTS}/workspaces-firm-switcher-1280.png` });
        await page.keyboard.press('Escape');
      });

      // A new accountant invited to the firm sets a password from the mailed link and lands on Home.
      const accountant = uniqueEmail('firm-accountant');
      const sent = await system.api('POST', '/accounting-firm/invite', {
        token,
        body: { email: accountant, role: 'accountant', firstName: 'Alan', lastName: 'Turing', organizationIds: [mapleId] },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const mail = await system.mailTo(accountant, /^Join Hopper & Partners/);
      const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+&kind=firm/.exec(mail.text ?? '')?.[0];
      if (!link) throw new Error(`no firm invite link in "${mail.text}"`);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.goto(`/verify-invite${new URL(link).search}`);
        await visible(page.getByRole('heading', { name: 'Welcome, Alan' }));
        await field(page, 'Password').fill(PASSWORD);
        await field(page, 'Confirm password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Set password and join' }).click();
        await visible(notice(page, 'status', 'Your password has been set.'));
        await waitForPath(page, '/select-organization');
        await visible(page.getByRole('heading', { name: 'Select an organization', level: 1 }));
      });
    },
    TEST_MS * 2,
  );
});
