// The Fixed Assets and Schedules tabs (issue #19 items 6–8; spec documents-parties-integrations §2, platform-core
// drill-down; decision 0030) in real Chromium against the real stack (gateway, identity, banking with the Plaid
// sandbox, ledger, reporting, documents). A fixed asset is made from a bank transaction through the dialog (the
// server's refusal shown on the field it names, then accepted) and its depreciation schedule opened; a prepaid accrual
// made through the API is opened from the balance sheet's Prepaid Expenses row into the schedules tab, whose balance
// is the balance sheet's cell; the calendar view shows the month's release. Layout: tables and dialogs inside the
// window, no sideways scroll at 390 px. Screenshots in test-results/screenshots/assets-schedules-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  descriptionOf,
  dialogNamed,
  expectInsideWindow,
  expectNoHorizontalScroll,
  inFreshPage,
  launchBrowser,
  notice,
  startPartiesWebSession,
  STEP_MS,
  TEST_MS,
  visible,
  type PartiesWebSession,
} from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

interface Txn {
  id: string;
  amount: number;
  dateTime: string;
  memo: string;
  pending: boolean;
  biller: { name: string } | null;
  entityType: string | null;
  isAccruedParent: boolean;
  transferStatus: string | null;
}

let session: PartiesWebSession;
let browser: Browser;
let outflows: Txn[];

const money = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);
const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`assets-schedules-${name}.png`, SCREENSHOTS).pathname, fullPage: true });
const pad = (n: number) => String(n).padStart(2, '0');
const todayIso = () => {
  const d = new Date();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
const lastDayOf = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${pad(new Date(Date.UTC(y, m, 0)).getUTCDate())}`;
};
const addMonths = (date: string, n: number) => {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-28`;
};

/** The element that scrolls the table sideways (or the table itself): it must lie inside the window. */
const scrollBoxOf = (table: Locator): Locator => table.locator('xpath=ancestor::div[contains(@class,"overflow")][1]');

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [session, browser] = await Promise.all([startPartiesWebSession({ transactions: 24, reporting: true, documents: true }), launchBrowser()]);
  const all = (await session.api('GET', '/transactions/v2?take=100&flow=outflow&order=DESC')).body.data as Txn[];
  // Settled purchases of at least $10 (a cent or two would make a thin schedule), newest first.
  outflows = all.filter((t) => !t.pending && t.amount <= -10 && t.entityType === null && !t.isAccruedParent && t.transferStatus === null);
  if (outflows.length < 3) throw new Error(`the sandbox gave ${outflows.length} settled purchases; three are needed`);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await session?.system.stop();
});

describe('fixed assets', () => {
  it(
    'makes a fixed asset from a bank transaction and opens its depreciation schedule',
    async () => {
      const purchase = outflows[1]!;
      const cost = Math.abs(purchase.amount);
      const name = purchase.biller?.name || purchase.memo;
      await inFreshPage(browser, session.system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        await page.goto(`${session.system.webUrl}/accounting?tab=fixed-assets`);
        await visible(page.getByText('No fixed assets yet', { exact: true }));
        await expectNoHorizontalScroll(page, 'the empty fixed assets tab');
        await shot(page, 'desktop-empty');

        await page.getByRole('button', { name: 'New fixed asset' }).first().click();
        await page.waitForURL((u) => u.searchParams.get('mode') === 'create');
        const dialog = dialogNamed(page, 'New fixed asset');
        await expectInsideWindow(page, dialog, 'the create dialog');
        // Search the purchases by a word of the transaction's name; only money going out is offered.
        const word = name.split(/\s+/).find((w) => w.length >= 3) ?? name;
        await dialog.getByRole('searchbox', { name: 'Search transactions' }).fill(word);
        const choices = dialog.getByRole('group', { name: 'Purchases' }).getByRole('button');
        const choice = choices
          .filter({ hasText: money(cost) })
          .filter({ hasText: name })
          .first();
        await visible(choice);
        await choice.click();
        await visible(dialog.getByLabel('Purchase transaction'));
        expect(await dialog.getByRole('textbox', { name: 'Cost' }).inputValue()).toBe(money(cost));
        await dialog.getByRole('textbox', { name: /^Name/ }).fill('Delivery van');
        expect(await dialog.getByRole('button', { name: /^Method/ }).innerText()).toContain('Straight line');
        await dialog.getByRole('spinbutton', { name: /^Useful life/ }).fill('5');
        // A salvage value above the cost: the server's 400 names salvageValue, shown on that field.
        const salvage = dialog.getByRole('textbox', { name: /^Salvage value/ });
        await salvage.fill(String(Math.ceil(cost) + 100));
        await dialog.getByRole('button', { name: 'Create asset' }).click();
        await expect.poll(() => descriptionOf(salvage), { timeout: STEP_MS }).toContain('salvageValue cannot be more than cost');
        await shot(page, 'desktop-create-refused');
        await salvage.fill('0');
        await dialog.getByRole('button', { name: 'Create asset' }).click();
        await expect.poll(() => notice(page, 'status', 'Fixed asset created').count(), { timeout: STEP_MS }).toBeGreaterThan(0);

        // The asset opens with its schedule: 60 months of straight line from the cost down to the salvage value.
        await page.waitForURL((u) => u.searchParams.get('fixedAsset') !== null && u.searchParams.get('mode') === null);
        const assetId = new URL(page.url()).searchParams.get('fixedAsset')!;
        const view = dialogNamed(page, 'Delivery van');
        await expectInsideWindow(page, view, 'the asset dialog');
        const schedule = view.getByRole('table', { name: 'Depreciation schedule' });
        await expect.poll(() => schedule.locator('tbody tr').count(), { timeout: STEP_MS }).toBe(60);
        const first = (await schedule.locator('tbody tr').first().getByRole('cell').allTextContents()).map((c) => c.trim());
        expect(first[1]).toBe(money(cost));
        // Each year's fifth split into whole-cent months, the twelfth taking the remainder (decision 0025).
        expect(first[2]).toBe(money(Math.floor(Math.floor(Math.round(cost * 100) / 5) / 12) / 100));
        const last = (await schedule.locator('tbody tr').last().getByRole('cell').allTextContents()).map((c) => c.trim());
        expect(last[3]).toBe(money(cost));
        expect(last[4]).toBe('$0.00');
        // The purchase links back to its transaction.
        expect(await view.getByRole('link', { name: /^Open the purchase/ }).getAttribute('href')).toBe(`/transactions?txn=${purchase.id}`);
        const stored = (await session.api('GET', `/accounting/fixed-asset/${assetId}`)).body;
        expect([stored.referenceWorkspaceTransaction, stored.cost, stored.method, stored.usefulLife]).toEqual([purchase.id, cost, 'STRAIGHT_LINE', 5]);
        // A month already past is posted by the scheduler a moment after the create; the open dialog follows it.
        if ((stored.schedule[0].depreciationDateTime as string) <= new Date().toISOString().slice(0, 10)) {
          await expect
            .poll(async () => (await schedule.locator('tbody tr').first().getByRole('cell').last().innerText()).trim(), { timeout: STEP_MS })
            .toBe('Posted');
          const accumulated = view.locator('dt', { hasText: /^Accumulated depreciation$/ }).locator('xpath=following-sibling::dd[1]');
          await expect.poll(async () => (await accumulated.innerText()).trim(), { timeout: STEP_MS }).not.toBe('$0.00');
        }
        await shot(page, 'desktop-asset');

        // Stop, after a confirmation: the status says so and the list shows it.
        await view.getByRole('button', { name: 'Stop', exact: true }).click();
        await visible(view.getByText(/^Stop depreciating this asset\?/));
        await view.getByRole('button', { name: 'Stop depreciation' }).click();
        await expect.poll(() => notice(page, 'status', 'Fixed asset stopped').count(), { timeout: STEP_MS }).toBeGreaterThan(0);
        await expect.poll(() => view.getByText('Stopped', { exact: true }).count(), { timeout: STEP_MS }).toBeGreaterThan(0);
        await view.getByRole('button', { name: 'Close', exact: true }).click();
        await page.waitForURL((u) => u.searchParams.get('fixedAsset') === null);
        const table = page.getByRole('table', { name: 'Fixed assets' });
        const row = table.locator('tbody tr').filter({ hasText: 'Delivery van' });
        await visible(row);
        const cells = (await row.getByRole('cell').allTextContents()).map((c) => c.trim());
        expect(cells[2]).toBe(money(cost));
        expect(cells[3]).toBe('Straight line');
        expect(cells[4]).toBe('5 years');
        expect(cells[7]).toBe('Stopped');
        // The list's figures are the asset's own (the months posted while it was open included).
        const after = (await session.api('GET', `/accounting/fixed-asset/${assetId}`)).body;
        expect([cells[5], cells[6]]).toEqual([money(after.accumulatedDepreciation), money(after.carryingValue)]);
        await expectInsideWindow(page, scrollBoxOf(table), 'the fixed assets table', { vertically: false });
        await expectNoHorizontalScroll(page, 'the fixed assets list at 1440 px');
        await shot(page, 'desktop-list');
      });
    },
    TEST_MS * 2,
  );
});

describe('deleting a fixed asset', () => {
  it(
    'asks first, then the asset is gone and its purchase is an ordinary transaction again',
    async () => {
      const purchase = outflows[2]!;
      const categories = (await session.api('GET', '/categories')).body.categories as { id: string; name: string }[];
      const made = await session.api('POST', '/accounting/fixed-asset', {
        transactionId: purchase.id,
        purchaseDate: purchase.dateTime.slice(0, 10),
        depreciationStartDate: purchase.dateTime.slice(0, 10),
        description: 'Office laptop',
        assetTypeId: categories.find((c) => c.name === 'Computer Equipment')!.id,
        cost: Math.abs(purchase.amount),
        usefulLife: 3,
        method: 'SUM_OF_YEARS_DIGITS',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body.fixedAsset.id as string;
      expect((await session.api('GET', `/transactions/v2/${purchase.id}`)).body.entityType).toBe('FixedAsset');
      await inFreshPage(browser, session.system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        await page.goto(`${session.system.webUrl}/accounting?tab=fixed-assets&fixedAsset=${id}`);
        const view = dialogNamed(page, 'Office laptop');
        await expect.poll(() => view.getByRole('table', { name: 'Depreciation schedule' }).locator('tbody tr').count(), { timeout: STEP_MS }).toBe(36);
        expect(await view.innerText()).toContain('Sum of years digits');
        await view.getByRole('button', { name: 'Delete', exact: true }).click();
        await visible(view.getByText(/^Delete this asset\?/));
        await shot(page, 'desktop-delete-confirm');
        // Keep leaves it as it was.
        await view.getByRole('button', { name: 'Keep' }).click();
        await view.getByRole('button', { name: 'Delete', exact: true }).click();
        await view.getByRole('button', { name: 'Delete asset' }).click();
        await expect.poll(() => notice(page, 'status', 'Fixed asset deleted').count(), { timeout: STEP_MS }).toBeGreaterThan(0);
        await page.waitForURL((u) => u.searchParams.get('fixedAsset') === null);
        await visible(page.getByRole('table', { name: 'Fixed assets' }));
        await expect
          .poll(() => page.getByRole('table', { name: 'Fixed assets' }).locator('tbody tr').filter({ hasText: 'Office laptop' }).count(), { timeout: STEP_MS })
          .toBe(0);
      });
      expect((await session.api('GET', `/accounting/fixed-asset/${id}`)).status).toBe(404);
      await expectEventually(async () => expect((await session.api('GET', `/transactions/v2/${purchase.id}`)).body.entityType).toBeNull(), {
        timeoutMs: 20_000,
        intervalMs: 250,
      });
    },
    TEST_MS,
  );
});

describe('schedules', () => {
  it(
    "opens the prepaid schedule from the balance sheet's Prepaid Expenses row; its balance is the cell; the calendar shows the month",
    async () => {
      const paid = outflows[0]!;
      const amount = Math.abs(paid.amount);
      const start = paid.dateTime.slice(0, 10);
      const month = start.slice(0, 7);
      const accrued = await session.api('POST', '/transactions/create-accrual', {
        transactionId: paid.id,
        accrualStartDate: start,
        accrualEndDate: addMonths(start, 5),
        accrualCategory: 'Prepaid Expenses',
        recogniseCategoryId: ((await session.api('GET', '/categories')).body.categories as { id: string; name: string }[]).find(
          (c) => c.name === 'Office Supplies',
        )!.id,
      });
      expect(accrued.status, JSON.stringify(accrued.body)).toBe(200);
      const endDate = lastDayOf(month) < todayIso() ? lastDayOf(month) : todayIso();
      const period = `startDate=${month}-01&endDate=${endDate}`;
      // Reporting reads the books a moment later: wait until the balance sheet shows the prepaid balance.
      await expectEventually(
        async () => {
          const sheet = await session.api('GET', `/financial-data/balance-sheet/v2?${period}`);
          expect(JSON.stringify(sheet.body)).toContain('Prepaid Expenses');
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );

      await inFreshPage(browser, session.system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        await page.goto(`${session.system.webUrl}/reports?tab=balancesheet&${period}`);
        const sheet = await visible(page.getByRole('table', { name: 'Balance sheet' }));
        const link = sheet.getByRole('link', { name: /^Open the schedule of Prepaid Expenses for / }).last();
        await visible(link);
        const cellText = (await link.innerText()).trim();
        expect(cellText).not.toBe('$0.00');
        await shot(page, 'desktop-balance-sheet');
        await link.click();
        await page.waitForURL((u) => u.pathname === '/accounting' && u.searchParams.get('tab') === 'schedules');
        const url = new URL(page.url());
        expect(url.searchParams.get('ledgerAccount')).toBeTruthy();
        expect(url.searchParams.get('startDate')).toBe(`${month}-01`);
        expect(url.searchParams.get('endDate')).toBe(endDate);

        const section = page.getByRole('region', { name: 'Prepaid Expenses' });
        await visible(section);
        expect(await page.getByRole('region', { name: 'Deferred Revenue' }).count()).toBe(0);
        // The schedule's balance at the period's end is the balance sheet's cell.
        await expect.poll(() => section.getByTestId('running-balance').innerText(), { timeout: STEP_MS }).toBe(cellText);
        const lines = section.getByRole('table', { name: 'Prepaid Expenses schedule' });
        await expect.poll(() => lines.locator('tbody tr').count(), { timeout: STEP_MS }).toBeGreaterThan(0);
        expect(await lines.innerText()).toContain(money(amount));
        await expectInsideWindow(page, scrollBoxOf(lines), 'the schedule table', { vertically: false });
        await expectNoHorizontalScroll(page, 'the schedules list at 1440 px');
        await shot(page, 'desktop-schedules-list');

        // The calendar view (bound to the URL): the month shows what was released and what was added.
        await page.getByRole('button', { name: 'Calendar' }).click();
        await page.waitForURL((u) => u.searchParams.get('view') === 'calendar');
        const calendar = page.getByRole('list', { name: 'Schedules calendar' });
        await visible(calendar);
        const monthCard = calendar
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { level: 3 }) })
          .first();
        await visible(monthCard);
        const text = await monthCard.innerText();
        expect(text).toContain('Recognised');
        expect(text).toContain('Added');
        expect(text).toContain(money(amount));
        expect(await calendar.innerText()).not.toContain('-$0.00');
        await shot(page, 'desktop-schedules-calendar');
        await page.reload();
        await visible(page.getByRole('list', { name: 'Schedules calendar' }));
        expect(await page.getByRole('button', { name: 'Calendar' }).getAttribute('aria-pressed')).toBe('true');
      });
    },
    TEST_MS * 2,
  );
});

describe('at 390 px', () => {
  it(
    'the fixed assets list, the asset dialog and the schedules stay inside the window; nothing scrolls sideways',
    async () => {
      await inFreshPage(browser, session.system.webUrl, async (page) => {
        await session.signIn(page, PHONE);
        await page.goto(`${session.system.webUrl}/accounting?tab=fixed-assets`);
        const table = page.getByRole('table', { name: 'Fixed assets' });
        await visible(table);
        await expectInsideWindow(page, scrollBoxOf(table), 'the fixed assets table at 390 px', { vertically: false });
        await expectNoHorizontalScroll(page, 'the fixed assets list at 390 px');
        await shot(page, 'phone-list');
        await table.getByRole('button', { name: 'Delivery van' }).click();
        const view = dialogNamed(page, 'Delivery van');
        await visible(view.getByRole('table', { name: 'Depreciation schedule' }));
        await expectInsideWindow(page, view, 'the asset dialog at 390 px', { vertically: false });
        await expectNoHorizontalScroll(page, 'the asset dialog at 390 px');
        await shot(page, 'phone-asset');
        await view.getByRole('button', { name: 'Close', exact: true }).click();
        await page.getByRole('button', { name: 'New fixed asset' }).first().click();
        const create = dialogNamed(page, 'New fixed asset');
        await visible(create.getByRole('group', { name: 'Purchases' }));
        await expectInsideWindow(page, create, 'the create dialog at 390 px', { vertically: false });
        await expectNoHorizontalScroll(page, 'the create dialog at 390 px');
        await shot(page, 'phone-create');
        await create.getByRole('button', { name: 'Cancel' }).click();

        await page.goto(`${session.system.webUrl}/accounting?tab=schedules`);
        const section = page.getByRole('region', { name: 'Prepaid Expenses' });
        await visible(section);
        await shot(page, 'phone-schedules-list');
        await expectInsideWindow(page, scrollBoxOf(section.getByRole('table')), 'the schedule table at 390 px', { vertically: false });
        await expectNoHorizontalScroll(page, 'the schedules list at 390 px');
        await page.getByRole('button', { name: 'Calendar' }).click();
        await visible(page.getByRole('list', { name: 'Schedules calendar' }));
        await expectNoHorizontalScroll(page, 'the schedules calendar at 390 px');
        await shot(page, 'phone-schedules-calendar');
      });
    },
    TEST_MS,
  );
});
