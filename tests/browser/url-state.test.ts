// State in the URL (issue #13) in real Chromium against identity, the gateway, the ledger and reporting. Banking does
// not run: its events are published on the bus as in reports.test.ts. A person filters the transactions list and a
// profit and loss, reloads, goes back and forward, and opens the copied address in a fresh browser: each time the
// same filters and the same rows. The P&L's Groups filter offers only income and expense groups. Screenshots go to
// test-results/screenshots/url-state-*.png.
import { mkdirSync } from 'node:fs';
import { expectEventually } from '@ledgerline/platform/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingFor } from '../../services/ledger/test/support.js';
import { onboardBody, PASSWORD, signedUpUser, startSystem, type System } from '../support/system.js';
import { inFreshPage, launchBrowser, logInThroughForm, STEP_MS, TEST_MS, visible, waitForPath, settledLayout } from './support.js';

let system: System & { webUrl: string };
let browser: Browser;

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'mobile', width: 390, height: 844 },
] as const;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const started = startSystem({
    web: true,
    ledger: true,
    reporting: true,
    gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000', SERVICE_TIMEOUT_MS: '15000' },
  }).then((s) => {
    if (s.webUrl === null) throw new Error('startSystem({ web: true, ledger: true, reporting: true }) served no web app');
    return { ...s, webUrl: s.webUrl };
  });
  [system, browser] = await Promise.all([started, launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

const pad = (n: number) => String(n).padStart(2, '0');
/** The local calendar day `daysAgo` days back, never before 1 January (the reports open on the year to date). */
function day(daysAgo: number): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo);
  const jan1 = new Date(now.getFullYear(), 0, 1);
  const at = d < jan1 ? jan1 : d;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

interface Books {
  email: string;
  token: string;
  workspaceId: string;
}

/** An onboarded Owner with a client payment, three coffee lines (one a refund) and office supplies; the first coffee is Meals and Entertainment. */
async function books(): Promise<Books> {
  const { email, token, user } = await signedUpUser(system);
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  const workspaceId = user.workspace.id;
  const bank = bankingFor(system.bus, workspaceId);
  const accountId = await bank.link({ name: 'Business Checking', mask: '4321' });
  await bank.add(accountId, { amountCents: 250_000, date: day(5), name: 'Client payment' });
  await bank.add(accountId, { amountCents: -4_550, date: day(4), name: 'Coffee Roasters' });
  await bank.add(accountId, { amountCents: -1_200, date: day(3), name: 'Coffee Roasters' });
  await bank.add(accountId, { amountCents: -12_025, date: day(2), name: 'Office Depot' });
  await bank.add(accountId, { amountCents: 3_000, date: day(1), name: 'Coffee Roasters refund' });
  const listed = await expectEventually(
    async () => {
      const answer = await system.api('GET', '/transactions/v2?take=10&order=ASC', { token, workspace: workspaceId });
      expect(answer.body?.meta?.itemCount).toBe(5);
      return answer.body.data as { id: string; amount: number }[];
    },
    { timeoutMs: 30_000 },
  );
  const categories = await system.api('GET', '/categories', { token, workspace: workspaceId });
  const meals = (categories.body.categories as { id: string; name: string }[]).find((c) => c.name === 'Meals and Entertainment');
  const coffee = listed.find((t) => t.amount === -45.5);
  if (!meals || !coffee) throw new Error('no Meals and Entertainment account or no coffee transaction');
  expect((await system.api('PATCH', `/transactions/${coffee.id}`, { token, workspace: workspaceId, body: { categoryId: meals.id } })).status).toBe(200);
  return { email, token, workspaceId };
}

/** The ids GET /transactions/v2 lists for a query, in its order: what the screen must show. */
async function listedIds({ token, workspaceId }: Books, query: string): Promise<string[]> {
  const answer = await system.api('GET', `/transactions/v2?take=100&${query}`, { token, workspace: workspaceId });
  expect(answer.status).toBe(200);
  return (answer.body.data as { id: string }[]).map((t) => t.id);
}

async function signIn(page: Page, email: string): Promise<void> {
  await logInThroughForm(page, email, PASSWORD);
  await waitForPath(page, '/dashboard');
}

const rowIds = (page: Page) => page.locator('tbody tr[data-transaction-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-transaction-id')));
const historyLength = (page: Page) => page.evaluate(() => window.history.length);

async function expectRows(page: Page, ids: readonly string[]): Promise<void> {
  await expect.poll(() => rowIds(page), { timeout: STEP_MS }).toEqual(ids);
}

/** A filter dropdown (the ui kit's Select) by its label: the button's text is the choice shown. */
const dropdown = (scope: Page | Locator, label: string) => scope.getByRole('button', { name: new RegExp(`^${label}`) });

async function choose(page: Page, label: string, option: string): Promise<void> {
  await dropdown(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Nothing wider than the window, the named boxes inside it; a screenshot at each size. */
async function checkLayout(page: Page, name: string, boxes: { locator: Locator; what: string; desktopOnly?: boolean }[]): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await settledLayout(page);
    // The page never scrolls sideways (at 390 px the list's table scrolls inside its own box).
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(scroll, `${name} ${viewport.name}: the page is ${scroll}px wide in a ${client}px window`).toBeLessThanOrEqual(client);
    for (const { locator, what, desktopOnly } of boxes) {
      if (desktopOnly && viewport.name !== 'desktop') continue;
      const box = await locator.boundingBox();
      expect(box, `${name} ${viewport.name}: ${what} not laid out`).not.toBeNull();
      expect(box!.x, `${name} ${viewport.name}: ${what} left edge`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `${name} ${viewport.name}: ${what} right edge`).toBeLessThanOrEqual(viewport.width + 0.5);
    }
    await page.screenshot({ path: new URL(`url-state-${name}-${viewport.name}.png`, SCREENSHOTS).pathname, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe('state in the URL', () => {
  it(
    'keeps the transactions filters through reload, back/forward and a copied link',
    async () => {
      const b = await books();
      const coffeeOut = await listedIds(b, 'description=coffee&flow=outflow&order=ASC');
      const coffeeOutNewest = await listedIds(b, 'description=coffee&flow=outflow');
      const coffeeAll = await listedIds(b, 'description=coffee&order=ASC');
      expect(coffeeOut).toHaveLength(2);
      expect(coffeeAll).toHaveLength(3);
      let link = '';

      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await signIn(page, b.email);
        await page.goto('/transactions?tab=all');
        await visible(page.getByText('Showing 5 of 5 transactions'));
        const description = page.getByRole('searchbox', { name: 'Description' });

        // Typing settles into the URL as one replaced entry, not one entry per keystroke.
        const before = await historyLength(page);
        await description.pressSequentially('coffee', { delay: 40 });
        await page.waitForURL((u) => u.searchParams.get('description') === 'coffee');
        await visible(page.getByText('Showing 3 of 3 transactions'));
        expect(await historyLength(page)).toBe(before);

        // Each choice is one history entry.
        await choose(page, 'Flow', 'Outflow');
        await page.waitForURL((u) => u.searchParams.get('flow') === 'outflow');
        await choose(page, 'Order', 'Oldest first');
        await page.waitForURL((u) => u.searchParams.get('order') === 'ASC');
        expect(await historyLength(page)).toBe(before + 2);
        await expectRows(page, coffeeOut);
        expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ tab: 'all', description: 'coffee', flow: 'outflow', order: 'ASC' });

        // Reload: the same filters in the bar and the same rows.
        await page.reload();
        await expectRows(page, coffeeOut);
        expect(await description.inputValue()).toBe('coffee');
        expect(await dropdown(page, 'Flow').textContent()).toContain('Outflow');
        expect(await dropdown(page, 'Order').textContent()).toContain('Oldest first');
        await visible(page.getByText('2 filters applied'));
        await checkLayout(page, 'transactions', [
          { locator: page.getByRole('region', { name: 'Filters' }), what: 'the filter bar' },
          { locator: description, what: 'the description filter' },
          {
            locator: page.locator(`tr[data-transaction-id="${coffeeOut[0]}"]`).getByRole('button', { name: 'Details of Coffee Roasters' }),
            what: 'the first row',
            desktopOnly: true,
          },
        ]);

        // Back and forward walk through the choices.
        await page.goBack();
        await page.waitForURL((u) => u.searchParams.get('order') === null && u.searchParams.get('flow') === 'outflow');
        await expectRows(page, coffeeOutNewest);
        expect(await dropdown(page, 'Order').textContent()).toContain('Newest first');
        await page.goBack();
        await page.waitForURL((u) => u.searchParams.get('flow') === null && u.searchParams.get('description') === 'coffee');
        await expect.poll(() => rowIds(page).then((ids) => [...ids].sort()), { timeout: STEP_MS }).toEqual([...coffeeAll].sort());
        expect(await dropdown(page, 'Flow').textContent()).toContain('All');
        expect(await description.inputValue()).toBe('coffee');
        await page.goForward();
        await page.goForward();
        await page.waitForURL((u) => u.searchParams.get('order') === 'ASC');
        await expectRows(page, coffeeOut);

        // Clear filters is one change back to the bare list.
        await page.getByRole('button', { name: 'Clear filters' }).click();
        await page.waitForURL((u) => u.search === '?tab=all&order=ASC');
        await visible(page.getByText('Showing 5 of 5 transactions'));
        expect(await description.inputValue()).toBe('');
        await page.goBack();
        await expectRows(page, coffeeOut);
        expect(await description.inputValue()).toBe('coffee');
        link = page.url();
      });

      // The copied address in a fresh browser shows the same list; values a link cannot mean are ignored.
      const start = day(4);
      const end = day(3);
      const inRange = await listedIds(b, `startDate=${start}&endDate=${end}`);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page, b.email);
        await page.goto(link);
        await expectRows(page, coffeeOut);
        expect(await page.getByRole('searchbox', { name: 'Description' }).inputValue()).toBe('coffee');
        expect(await dropdown(page, 'Flow').textContent()).toContain('Outflow');

        await page.goto(`/transactions?tab=all&description=coffee&flow=sideways&order=random&minAmount=ten&accountId=%3Cscript%3E`);
        await expect.poll(() => rowIds(page).then((ids) => [...ids].sort()), { timeout: STEP_MS }).toEqual([...coffeeAll].sort());
        expect(await dropdown(page, 'Flow').textContent()).toContain('All');

        await page.goto(`/transactions?tab=all&startDate=${start}&endDate=${end}`);
        await expect.poll(() => rowIds(page).then((ids) => [...ids].sort()), { timeout: STEP_MS }).toEqual([...inRange].sort());
        await page.getByRole('button', { name: 'Any date' }).click();
        await page.waitForURL((u) => u.searchParams.get('startDate') === null);
        await visible(page.getByText('Showing 5 of 5 transactions'));
      });
    },
    TEST_MS * 2,
  );

  it(
    'keeps a filtered profit and loss through reload and a copied link; its Groups offer no balance-sheet group',
    async () => {
      const b = await books();
      let link = '';
      let shown = '';
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await signIn(page, b.email);
        await page.goto('/reports?tab=pnl');
        const table = await visible(page.getByRole('table', { name: 'Profit and loss' }));
        await visible(table.getByRole('rowheader', { name: /Uncategorised Income/ }));

        // Groups: the P&L's own (income and expenses), none of the balance sheet's.
        await dropdown(page, 'Groups').click();
        const offered = await page.getByRole('option').allTextContents();
        expect(offered).toEqual(expect.arrayContaining(['Operating Expenses', 'Operating Income']));
        for (const balanceSheetGroup of ['Current Assets', 'Fixed Assets', 'Current Liabilities', "Owner's Equity", 'Transfers'])
          expect(offered).not.toContain(balanceSheetGroup);
        await page.getByRole('option', { name: 'Operating Expenses', exact: true }).click();
        await page.keyboard.press('Escape');
        await page.waitForURL((u) => u.searchParams.get('groups') === 'Operating Expenses');
        await choose(page, 'Breakdown', 'Quarterly');
        await page.waitForURL((u) => u.searchParams.get('breakdown') === 'quarterly');
        // Filtered to Operating Expenses: the income is gone, the coffee stays.
        await expect.poll(() => table.getByRole('rowheader', { name: /Uncategorised Income/ }).count(), { timeout: STEP_MS }).toBe(0);
        await visible(table.getByRole('rowheader', { name: /Meals and Entertainment/ }));
        // Quarters as columns, and nothing still loading, before the screen is taken as the reference.
        await visible(table.getByRole('columnheader', { name: /^Q1/ }));
        await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: STEP_MS }).toBe(0);
        shown = await table.innerText();
        expect(shown).not.toMatch(/Uncategorised Income/);
        link = page.url();
        expect(Object.fromEntries(new URL(link).searchParams)).toMatchObject({
          tab: 'pnl',
          groups: 'Operating Expenses',
          breakdown: 'quarterly',
          excludeZeroes: 'true',
        });

        await page.reload();
        await expect.poll(() => page.getByRole('table', { name: 'Profit and loss' }).innerText(), { timeout: STEP_MS }).toBe(shown);
        expect(await dropdown(page, 'Breakdown').textContent()).toContain('Quarterly');
        expect(await dropdown(page, 'Groups').textContent()).toContain('Operating Expenses');
        await checkLayout(page, 'pnl', [
          { locator: dropdown(page, 'Groups'), what: 'the Groups filter' },
          { locator: dropdown(page, 'Breakdown'), what: 'the Breakdown filter' },
        ]);

        // The balance sheet offers its own groups, none of the P&L's.
        await page.getByRole('tab', { name: 'Balance Sheet' }).click();
        await visible(page.getByRole('table', { name: 'Balance sheet' }));
        await dropdown(page, 'Groups').click();
        const sheetGroups = await page.getByRole('option').allTextContents();
        expect(sheetGroups).toEqual(expect.arrayContaining(['Current Assets', 'Current Liabilities']));
        for (const pnlGroup of ['Operating Expenses', 'Operating Income', 'Cost of Goods Sold']) expect(sheetGroups).not.toContain(pnlGroup);
        await page.keyboard.press('Escape');

        // Without filters in the URL, the P&L opens on the screen's stored filter set: the last one chosen here.
        await page.goto('/reports?tab=pnl');
        await visible(page.getByRole('table', { name: 'Profit and loss' }));
        expect(await dropdown(page, 'Breakdown').textContent()).toContain('Quarterly');
      });

      // A fresh browser (nothing stored) opening the copied address sees the same report.
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await signIn(page, b.email);
        await page.goto(link);
        await expect.poll(() => page.getByRole('table', { name: 'Profit and loss' }).innerText(), { timeout: STEP_MS }).toBe(shown);
        expect(await dropdown(page, 'Groups').textContent()).toContain('Operating Expenses');
        // Its own stored default is still the spec's: the bare address opens Monthly, all groups.
        await page.goto('/reports?tab=pnl');
        await visible(page.getByRole('table', { name: 'Profit and loss' }));
        expect(await dropdown(page, 'Breakdown').textContent()).toContain('Monthly');
        expect(await dropdown(page, 'Groups').textContent()).toContain('All groups');
      });
    },
    TEST_MS * 2,
  );
});
