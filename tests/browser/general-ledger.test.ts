// The general ledger at 390 px (issue #13) in real Chromium against the real stack (banking imports a Plaid sandbox
// bank, the ledger books it): the account's name and its closing balance get the width, the code, type and period
// columns stack under the name (as QuickBooks Online's mobile lists do); an account's lines show the description
// (with its date stacked under it) and one amount column (Dr/Cr) beside the running balance. Asserted with bounding
// boxes: no sideways page scroll, the name/description column at least 150 px wide, the amount and balance wholly in
// the window, no cell running into its neighbour; at 1440 px every column is there. Screenshots in
// test-results/screenshots/general-ledger-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, type System } from '../support/system.js';
import {
  boxOf,
  expectNoHorizontalScroll,
  importBankTransactions,
  inFreshPage,
  launchBrowser,
  logInThroughForm,
  settledLayout,
  startLedgerWebSystem,
  TEST_MS,
  visible,
  waitForPath,
} from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
/** Narrowest the account / description column may be at 390 px: a name of ~20 characters on one line. */
const READABLE_PX = 150;

let system: System & { webUrl: string; plaid: NonNullable<System['plaid']> };
let browser: Browser;
let email: string;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [system, browser] = await Promise.all([startLedgerWebSystem(), launchBrowser()]);
  const user = await signedUpUser(system);
  email = user.email;
  const onboarded = await system.api('POST', '/onboard-user', { token: user.token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  await importBankTransactions(system, user.token, 20);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

/** The visible cells of a row, with their boxes, left to right. */
async function cellBoxes(row: Locator): Promise<{ text: string; x: number; width: number }[]> {
  const cells = row.locator('th, td');
  const out: { text: string; x: number; width: number }[] = [];
  for (let i = 0; i < (await cells.count()); i++) {
    const box = await cells.nth(i).boundingBox();
    if (box && box.width > 0) out.push({ text: ((await cells.nth(i).textContent()) ?? '').trim(), x: box.x, width: box.width });
  }
  return out;
}

/** Adjacent cells do not overlap, and each lies inside the window. */
function expectDisjointInside(cells: { text: string; x: number; width: number }[], width: number, where: string): void {
  for (const [i, c] of cells.entries()) {
    expect(c.x, `${where}: "${c.text}" starts inside the window`).toBeGreaterThanOrEqual(-0.5);
    expect(c.x + c.width, `${where}: "${c.text}" ends inside the ${width}px window`).toBeLessThanOrEqual(width + 0.5);
    const next = cells[i + 1];
    if (next) expect(c.x + c.width, `${where}: "${c.text}" runs into "${next.text}"`).toBeLessThanOrEqual(next.x + 0.5);
  }
}

/** Whether the text of `locator` shows whole (not clipped by its box). */
const uncut = (locator: Locator) => locator.evaluate((e) => e.scrollWidth <= e.clientWidth + 0.5);

async function at(page: Page, viewport: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(viewport);
  await settledLayout(page);
}

describe('the general ledger at 390 px', () => {
  it(
    "gives the account's name and closing balance the width, stacking the low-value columns; every column at 1440 px",
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize(DESKTOP);
        await logInThroughForm(page, email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await page.goto('/accounting?tab=ledger&startDate=2020-01-01&endDate=2030-12-31');
        const table = page.getByRole('table', { name: 'General ledger' });
        const header = table.locator('thead tr');
        // The account with the most activity: the bank's own account (every imported line is booked to it).
        const row = table
          .locator('tbody tr')
          .filter({ has: page.getByRole('button', { name: /Checking|Savings|Platypus/ }) })
          .first();
        await visible(row);

        // 1440: all seven columns side by side, none running into the next.
        await at(page, DESKTOP);
        expect((await cellBoxes(header)).map((c) => c.text)).toEqual(['Account', 'coaId', 'Type', 'Opening balance', 'Debits', 'Credits', 'Closing balance']);
        expectDisjointInside(await cellBoxes(row), DESKTOP.width, 'general ledger row at 1440 px');
        expect(await row.locator('[data-stacked]').isVisible(), 'nothing stacked at 1440 px').toBe(false);
        await page.screenshot({ path: new URL('general-ledger-desktop.png', SCREENSHOTS).pathname, fullPage: true });

        // 390: account and closing balance only; the code, type and period figures under the name.
        await at(page, PHONE);
        await expectNoHorizontalScroll(page, 'general ledger at 390 px');
        expect((await cellBoxes(header)).map((c) => c.text)).toEqual(['Account', 'Closing balance']);
        const cells = await cellBoxes(row);
        expect(cells).toHaveLength(2);
        expectDisjointInside(cells, PHONE.width, 'general ledger row at 390 px');
        expect(cells[0]!.width, `the account column is ${cells[0]!.width}px wide`).toBeGreaterThanOrEqual(READABLE_PX);
        const name = row.getByRole('button').first();
        expect(await uncut(name), 'the account name shows whole').toBe(true);
        const stacked = row.locator('[data-stacked]');
        await visible(stacked);
        expect(await stacked.innerText()).toMatch(/·.*\n?.*Opening .*Dr .*Cr /s);
        const stackedBox = await boxOf(stacked, 'the stacked details');
        expect(stackedBox.x + stackedBox.width, 'the stacked details stay in the account cell').toBeLessThanOrEqual(cells[0]!.x + cells[0]!.width + 0.5);
        await page.screenshot({ path: new URL('general-ledger-phone.png', SCREENSHOTS).pathname, fullPage: true });

        // One account's lines at 390: the description (date under it) and the amount (Dr/Cr, the running balance under it).
        await name.click();
        const lines = page.getByRole('table', { name: 'Ledger lines' });
        const line = lines.locator('tbody tr[data-line-id]').first();
        await visible(line);
        await settledLayout(page);
        await expectNoHorizontalScroll(page, "an account's lines at 390 px");
        expect((await cellBoxes(lines.locator('thead tr'))).map((c) => c.text)).toEqual(['Description', 'Amount']);
        const lineCells = await cellBoxes(line);
        expect(lineCells).toHaveLength(2);
        expectDisjointInside(lineCells, PHONE.width, 'ledger line at 390 px');
        expect(lineCells[0]!.width, `the description column is ${lineCells[0]!.width}px wide`).toBeGreaterThanOrEqual(READABLE_PX);
        expect(await line.locator('[data-amount]').innerText()).toMatch(/^\$[\d,]+\.\d\d (Dr|Cr)$/);
        expect(await line.locator('[data-balance]').innerText()).toMatch(/^Bal\. -?\$[\d,]+\.\d\d$/);
        expect(await uncut(line.locator('td').nth(4)), 'the amount shows whole').toBe(true);
        await page.screenshot({ path: new URL('general-ledger-lines-phone.png', SCREENSHOTS).pathname, fullPage: true });

        // Back at 1440 the lines have their five columns.
        await at(page, DESKTOP);
        expect((await cellBoxes(lines.locator('thead tr'))).map((c) => c.text)).toEqual(['Date', 'Description', 'Debit', 'Credit', 'Balance']);
        expectDisjointInside(await cellBoxes(line), DESKTOP.width, 'ledger line at 1440 px');
        await page.screenshot({ path: new URL('general-ledger-lines-desktop.png', SCREENSHOTS).pathname, fullPage: true });
      });
    },
    TEST_MS,
  );
});
