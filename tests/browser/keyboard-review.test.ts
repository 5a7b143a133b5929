// Keyboard-first review of /transactions (issue #13) in real Chromium against the real stack: once the review tab is
// open, no mouse. j/k move a visible focus through the rows, c opens the focused row's category list with its search
// focused, typing filters and Enter applies, x selects, c on a selection opens the bulk category and Enter applies it,
// f finalizes, ? opens the shortcut sheet (inside the window at 1440×900 and at 390×844) and Escape closes it. Ten
// transactions get their category this way, and the API says each one has it. Letters typed into a search never act as
// shortcuts ("office" holds an f and a c). Screenshots go to test-results/screenshots/keyboard-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, type System } from '../support/system.js';
import {
  importBankTransactions,
  inFreshPage,
  launchBrowser,
  logInThroughForm,
  notice,
  STEP_MS,
  startLedgerWebSystem,
  TEST_MS,
  visible,
  waitForPath,
  settledBox,
} from './support.js';

interface Txn {
  id: string;
  amount: number;
  category: { id: string; name: string } | null;
  isTransactionFinalized: boolean;
  isSplittedParent: boolean;
  isAccruedParent: boolean;
  entityType: string | null;
}

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let system: System & { webUrl: string; plaid: NonNullable<System['plaid']> };
let browser: Browser;
let email: string;
let token: string;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [system, browser] = await Promise.all([startLedgerWebSystem(), launchBrowser()]);
  const user = await signedUpUser(system);
  email = user.email;
  token = user.token;
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  await importBankTransactions(system, token, 40);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

const transaction = async (id: string): Promise<Txn> => (await system.api('GET', `/transactions/v2/${id}`, { token })).body as Txn;

async function openReview(page: Page, viewport: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(viewport);
  await logInThroughForm(page, email, PASSWORD);
  await waitForPath(page, '/dashboard');
  await page.goto('/transactions?tab=review');
  await visible(page.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first());
  // From here on the keyboard alone: a click would fail the test.
  await page.evaluate(() => document.addEventListener('mousedown', () => document.body.setAttribute('data-clicked', ''), { capture: true }));
}

/** The ids of the listed rows, top to bottom, and which of them the keyboard focus is on. */
const listed = (page: Page) => page.locator('tbody tr[data-transaction-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-transaction-id')!));
const focusedId = (page: Page) => page.evaluate(() => document.querySelector('tr[data-focused]')?.getAttribute('data-transaction-id') ?? null);

/** Presses j or k until the focus is on row `id` of the list (the first j focuses the first row). */
async function focusRow(page: Page, id: string): Promise<void> {
  const ids = await listed(page);
  const target = ids.indexOf(id);
  expect(target, `row ${id} is listed`).toBeGreaterThanOrEqual(0);
  if ((await focusedId(page)) === null) await page.keyboard.press('j');
  for (let i = 0; i < ids.length + 2; i++) {
    const at = ids.indexOf((await focusedId(page)) ?? '');
    if (at === target) break;
    await page.keyboard.press(at < target ? 'j' : 'k');
  }
  await expect.poll(() => focusedId(page), { timeout: STEP_MS }).toBe(id);
  // The focus is on the row itself and the row is on screen.
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-transaction-id') ?? null)).toBe(id);
  await expect.poll(() => page.locator(`tr[data-transaction-id="${id}"]`).isVisible()).toBe(true);
}

/** Types `search` into the open category list and applies the single match `option` with Enter. */
async function pickWithKeys(page: Page, search: string, option: string): Promise<void> {
  await page.keyboard.type(search);
  const list = await visible(page.getByRole('listbox'));
  await visible(list.getByRole('option', { name: option, exact: true }));
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => list.getByRole('option', { name: option, exact: true }).getAttribute('data-focus'), { timeout: STEP_MS }).toBe('');
  await page.keyboard.press('Enter');
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

describe('keyboard-first review', () => {
  it(
    'categorises ten transactions, selects, bulk categorises and finalizes with the keyboard alone',
    async () => {
      const review = (await system.api('GET', '/transactions/v2?finalization=nonFinalized&take=100', { token })).body.data as Txn[];
      const outflows = review.filter((t) => t.amount < 0 && !t.isSplittedParent && !t.isAccruedParent && !t.entityType);
      let one: Txn[] = [];
      let bulk: Txn[] = [];
      let finalized: Txn | undefined;
      await inFreshPage(browser, system.webUrl, async (page) => {
        await openReview(page, DESKTOP);
        // The first rows of the list the page shows: six one by one, four in one go, one more to finalize.
        const shown = new Set((await listed(page)).slice(0, 20));
        const candidates = outflows.filter((t) => shown.has(t.id));
        expect(candidates.length, 'uncategorised outflows among the first 20 rows').toBeGreaterThanOrEqual(11);
        one = candidates.slice(0, 6);
        bulk = candidates.slice(6, 10);
        finalized = candidates[10];

        // One by one: move to the row, c opens its list with the search focused, typing filters, Enter applies and the
        // keyboard is back on the row. "office" holds an f (finalize) and a c: typed into the search, they act as letters.
        for (const [i, t] of one.entries()) {
          await focusRow(page, t.id);
          await page.keyboard.press('c');
          const picker = page.locator(`tr[data-transaction-id="${t.id}"]`).getByRole('combobox');
          await expect.poll(() => picker.evaluate((e) => e === document.activeElement), { timeout: STEP_MS }).toBe(true);
          const [search, option] = i % 2 === 0 ? ['office', 'Office Supplies'] : ['rent', 'Rent'];
          await pickWithKeys(page, search, option);
          await expect.poll(() => picker.inputValue(), { timeout: STEP_MS }).toBe(option);
          await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-transaction-id') ?? null), { timeout: STEP_MS }).toBe(t.id);
          if (i === 0) await page.screenshot({ path: new URL('keyboard-review-desktop.png', SCREENSHOTS).pathname });
        }

        // x selects the focused row; c on a selection opens the bulk bar's category, Enter applies the category and a
        // second Enter the bulk action.
        for (const t of bulk) {
          await focusRow(page, t.id);
          await page.keyboard.press('x');
          await expect.poll(() => page.locator(`tr[data-transaction-id="${t.id}"]`).getByRole('checkbox').isChecked(), { timeout: STEP_MS }).toBe(true);
        }
        const bar = await visible(page.getByRole('region', { name: 'Bulk actions' }));
        await visible(bar.getByText('4 selected', { exact: true }));
        await page.keyboard.press('c');
        const bulkPicker = bar.getByRole('combobox', { name: 'Category for selected' });
        await expect.poll(() => bulkPicker.evaluate((e) => e === document.activeElement), { timeout: STEP_MS }).toBe(true);
        await pickWithKeys(page, 'trav', 'Travel');
        const apply = bar.getByRole('button', { name: 'Categorise selected' });
        await expect.poll(() => apply.evaluate((e) => e === document.activeElement), { timeout: STEP_MS }).toBe(true);
        await page.screenshot({ path: new URL('keyboard-review-bulk-desktop.png', SCREENSHOTS).pathname });
        await page.keyboard.press('Enter');
        await visible(notice(page, 'status', 'Transactions have been updated successfully.'));
        await bar.waitFor({ state: 'detached' });

        // f finalizes the focused row, which leaves the review tab; the focus stays on the list.
        await focusRow(page, finalized!.id);
        await page.keyboard.press('f');
        await page.locator(`tr[data-transaction-id="${finalized!.id}"]`).waitFor({ state: 'detached' });
        await expect.poll(() => focusedId(page), { timeout: STEP_MS }).not.toBeNull();
        await expect.poll(() => page.evaluate(() => document.activeElement?.hasAttribute('data-transaction-id') ?? false), { timeout: STEP_MS }).toBe(true);

        expect(await page.evaluate(() => document.body.hasAttribute('data-clicked')), 'no mouse click after the page opened').toBe(false);
      });

      const categorised = [...one, ...bulk];
      expect(categorised).toHaveLength(10);
      const after = await Promise.all(categorised.map((t) => transaction(t.id)));
      expect(after.map((t) => t.category?.name)).toEqual([
        'Office Supplies',
        'Rent',
        'Office Supplies',
        'Rent',
        'Office Supplies',
        'Rent',
        'Travel',
        'Travel',
        'Travel',
        'Travel',
      ]);
      // The letters typed into searches finalized nothing; f finalized only the one row.
      expect(after.map((t) => t.isTransactionFinalized)).toEqual(Array(10).fill(false));
      expect((await transaction(finalized!.id)).isTransactionFinalized).toBe(true);
    },
    TEST_MS * 2,
  );

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(
      `? opens the shortcut sheet inside the window at ${viewport.width}×${viewport.height}; Escape closes it`,
      async () => {
        await inFreshPage(browser, system.webUrl, async (page) => {
          await openReview(page, viewport);
          await page.keyboard.press('?');
          // The dialog's own element is a zero-size wrapper; its panel is what shows.
          const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts for transactions' });
          await visible(sheet.locator('[data-dialog-panel]'));
          for (const key of ['j', 'k', 'c', 'x', 'f', '?'])
            await visible(sheet.locator('kbd', { hasText: new RegExp(`^${key === '?' ? '\\?' : key}$`) }).first());
          await visible(sheet.getByText('Next transaction'));
          // Measured once the open transition is over.
          const box = await settledBox(sheet.locator('[data-dialog-panel]'), 'the shortcut sheet');
          expect(box, 'the sheet is laid out').not.toBeNull();
          expect(box!.x).toBeGreaterThanOrEqual(0);
          expect(box!.y).toBeGreaterThanOrEqual(0);
          expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width + 0.5);
          expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height + 0.5);
          // Below 48em a dialog is a full-screen sheet.
          if (size === 'phone') expect(box).toEqual({ x: 0, y: 0, width: viewport.width, height: viewport.height });
          await page.screenshot({ path: new URL(`keyboard-shortcuts-${size}.png`, SCREENSHOTS).pathname });

          // While the sheet is open the list's keys do nothing; Escape closes it.
          await page.keyboard.press('j');
          expect(await focusedId(page)).toBeNull();
          await page.keyboard.press('Escape');
          await sheet.waitFor({ state: 'detached' });
          // Focus went back where it was (the page); the list's keys work again.
          await page.keyboard.press('j');
          await expect.poll(() => focusedId(page), { timeout: STEP_MS }).not.toBeNull();
          await page.keyboard.press('k');

          // Letters typed into a field are letters: the Description filter keeps "jx", no row is focused or selected.
          const search = page.getByRole('searchbox', { name: 'Description', exact: true });
          const before = await focusedId(page);
          await search.focus();
          await page.keyboard.type('jx');
          expect(await search.inputValue()).toBe('jx');
          expect(await focusedId(page)).toBe(before);
          expect(await page.getByRole('region', { name: 'Bulk actions' }).count()).toBe(0);
          expect(await page.evaluate(() => document.body.hasAttribute('data-clicked')), 'no mouse click after the page opened').toBe(false);
        });
      },
      TEST_MS,
    );
  }
});
