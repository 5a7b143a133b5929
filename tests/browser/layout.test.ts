// Layout a bookkeeper can work in (issue #13) in real Chromium against the real stack: banking imports a Plaid sandbox
// bank (60 transactions), the ledger books them and reporting serves the dashboard. At 1440×900 the transactions list
// shows at least 15 whole rows without scrolling, and its header stays on screen while the page scrolls; at 390×844
// no screen (dashboard, transactions, chart of accounts, general ledger, reports, settings) scrolls sideways; the columns of the
// transactions table and of top merchants do not run into each other; the dashboard's two tied figures stack.
// Below 62em the navigation is a menu button and a panel; below 48em each transaction is a card (date, description,
// amount, account, category picker, finalize) and a dialog is a full-screen sheet (the transaction drawer too).
// Screenshots of each screen at both sizes go to test-results/screenshots/layout-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, type System } from '../support/system.js';
import {
  importBankTransactions,
  inFreshPage,
  launchBrowser,
  logInThroughForm,
  startLedgerWebSystem,
  TEST_MS,
  visible,
  waitForPath,
  settledLayout,
  settledBox,
} from './support.js';

let system: System & { webUrl: string; plaid: NonNullable<System['plaid']> };
let browser: Browser;
let email: string;
let imported: number;

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [system, browser] = await Promise.all([startLedgerWebSystem({ reporting: true }), launchBrowser()]);
  const user = await signedUpUser(system);
  email = user.email;
  const onboarded = await system.api('POST', '/onboard-user', { token: user.token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  imported = await importBankTransactions(system, user.token, 60);
  if (imported < 40) throw new Error(`the sandbox booked ${imported} transactions; the tests need at least 40`);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

async function signIn(page: Page): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await logInThroughForm(page, email, PASSWORD);
  await waitForPath(page, '/dashboard');
}

/** The page never scrolls sideways: tables scroll inside their own box. */
async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const { scroll, client, widest } = await page.evaluate(() => {
    const client = document.documentElement.clientWidth;
    // The outermost elements that reach past the window (and are not inside a box that scrolls or clips within it),
    // to say which one widens the page.
    const clipped = (e: HTMLElement) => {
      // An absolutely placed element (an sr-only text) escapes a scrolling box that is not its containing block.
      if (['absolute', 'fixed'].includes(getComputedStyle(e).position)) return false;
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== 'visible' && a.getBoundingClientRect().right <= client + 0.5) return true;
      return false;
    };
    const past = [...document.querySelectorAll<HTMLElement>('body *')].filter((e) => e.getBoundingClientRect().right > client + 0.5 && !clipped(e));
    const outermost = past.filter((e) => !past.includes(e.parentElement as HTMLElement)).slice(0, 3);
    const widest = outermost.map((e) => `<${e.tagName.toLowerCase()} class="${e.className}"> to ${Math.round(e.getBoundingClientRect().right)}px`);
    return { scroll: document.documentElement.scrollWidth, client, widest };
  });
  expect(scroll, `${where}: the page is ${scroll}px wide in a ${client}px window; ${widest.join('; ')}`).toBeLessThanOrEqual(client);
}

/** The element's box lies wholly inside the window (`horizontally`: only its left and right edges, for a card below the fold). */
async function expectInsideWindow(page: Page, locator: Locator, what: string, horizontally = false): Promise<void> {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize()!;
  expect(box, `${what} is laid out`).not.toBeNull();
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box!.x + box!.width, `${what}: right edge`).toBeLessThanOrEqual(width + 0.5);
  if (horizontally) return;
  expect(box!.y, `${what}: top edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box!.y + box!.height, `${what}: bottom edge`).toBeLessThanOrEqual(height + 0.5);
}

/** Adjacent cells' boxes are disjoint: no column runs into the next. */
async function expectDisjointColumns(cells: Locator, where: string): Promise<void> {
  const boxes = await cells.evaluateAll((elements) =>
    elements
      .map(
        (e) =>
          ({ text: e.textContent?.trim() ?? '', ...JSON.parse(JSON.stringify(e.getBoundingClientRect())) }) as {
            text: string;
            left: number;
            right: number;
            width: number;
          },
      )
      .filter((b) => b.width > 0),
  );
  expect(boxes.length, `${where}: header cells`).toBeGreaterThanOrEqual(3);
  for (let i = 1; i < boxes.length; i++) {
    const [a, b] = [boxes[i - 1]!, boxes[i]!];
    expect(a.right, `${where}: "${a.text}" (right edge ${a.right}) runs into "${b.text}" (left edge ${b.left})`).toBeLessThanOrEqual(b.left + 0.5);
  }
}

/** The screen at 1440×900 and at 390×844: no sideways scroll at either, and a screenshot of each. */
async function bothSizes(
  page: Page,
  name: string,
  ready: (page: Page) => Promise<unknown>,
  atEach?: (page: Page, size: 'desktop' | 'phone') => Promise<void>,
): Promise<void> {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await ready(page);
    await settledLayout(page);
    await expectNoHorizontalScroll(page, `${name} at ${viewport.width}px`);
    await atEach?.(page, size);
    await page.screenshot({ path: new URL(`layout-${name}-${size}.png`, SCREENSHOTS).pathname, fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

/** Rows of `rows` whose box lies wholly inside the window and below `top` (a sticky header), as a person sees them. */
async function wholeRowsInView(page: Page, rows: Locator, top: number): Promise<number> {
  const height = page.viewportSize()!.height;
  const boxes = await rows.evaluateAll((elements) =>
    elements.map((e) => JSON.parse(JSON.stringify(e.getBoundingClientRect())) as { top: number; bottom: number; height: number }),
  );
  return boxes.filter((b) => b.height > 0 && b.top >= top - 0.5 && b.bottom <= height + 0.5).length;
}

describe('layout', () => {
  it(
    'shows at least 15 dense rows of transactions at 1440×900 under a header that stays while the page scrolls',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);
        await page.goto('/transactions?tab=all');
        const table = page.getByRole('table', { name: 'Transactions' });
        await visible(page.getByText(new RegExp(`^Showing \\d+ of ${imported} transactions$`)));
        const rows = table.locator('tbody tr');
        await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(20);

        await page.screenshot({ path: new URL('layout-transactions-list-desktop.png', SCREENSHOTS).pathname });
        const inView = await wholeRowsInView(page, rows, 0);
        expect(inView, `whole rows on screen at 1440×900 (the first row's top at ${(await rows.first().boundingBox())?.y}px)`).toBeGreaterThanOrEqual(15);
        // Dense rows: 32–36 px each (a border pixel aside).
        for (const box of await rows.evaluateAll((els) => els.slice(0, 20).map((e) => e.getBoundingClientRect().height))) {
          expect(box).toBeGreaterThanOrEqual(30);
          expect(box).toBeLessThanOrEqual(37);
        }
        // A merchant's name is never cut while the bank's text beside it still shows: the bank's text gives way first.
        const cut = await rows.evaluateAll((trs) =>
          trs.slice(0, 20).flatMap((tr) => {
            const line = tr.querySelectorAll('td')[2]?.firstElementChild;
            const [name, memo] = [line?.children[0] as HTMLElement | undefined, line?.children[1] as HTMLElement | undefined];
            if (!name || !memo?.classList.contains('truncate') || memo.getBoundingClientRect().width < 1) return [];
            return name.scrollWidth > name.clientWidth ? [`"${name.textContent}" cut to ${name.clientWidth}px beside "${memo.textContent}"`] : [];
          }),
        );
        expect(cut, 'descriptions cut while the bank text beside them shows').toEqual([]);
        await expectDisjointColumns(table.locator('thead th'), 'transactions header');
        await expectDisjointColumns(rows.first().locator('td'), 'first transaction row');

        // Scrolled down, the column header stays under the top bar and the rows scroll beneath it.
        await page.mouse.move(DESKTOP.width / 2, DESKTOP.height / 2);
        await page.mouse.wheel(0, 600);
        await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
        const header = await table.locator('thead').boundingBox();
        expect(header, 'the table header').not.toBeNull();
        expect(header!.y, 'the header sticks under the 64 px top bar').toBeGreaterThanOrEqual(63);
        expect(header!.y).toBeLessThanOrEqual(65);
        expect(await wholeRowsInView(page, rows, header!.y + header!.height), 'whole rows under the sticky header').toBeGreaterThanOrEqual(18);
        await page.screenshot({ path: new URL('layout-transactions-scrolled-desktop.png', SCREENSHOTS).pathname });
      });
    },
    TEST_MS,
  );

  it(
    'fits every screen in a 390 px window and keeps columns apart',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);

        // Dashboard: the tied figures stack at 390 px, top merchants' columns stay apart.
        await bothSizes(
          page,
          'dashboard',
          async (p) => {
            await visible(p.getByTestId('cash-in-bank'));
            await visible(p.getByRole('table', { name: 'Top merchants' }).getByRole('row').nth(1));
          },
          async (p, size) => {
            const merchants = p.getByRole('table', { name: 'Top merchants' });
            await merchants.scrollIntoViewIfNeeded();
            await expectDisjointColumns(merchants.locator('thead th'), `top merchants header (${size})`);
            await expectDisjointColumns(merchants.locator('tbody tr').first().locator('td'), `top merchants first row (${size})`);
            const cash = await p.getByTestId('cash-in-bank').boundingBox();
            const cards = await p.getByTestId('owed-on-cards').boundingBox();
            expect(cash && cards, 'both tied figures laid out').toBeTruthy();
            const apart = cash!.y + cash!.height <= cards!.y + 0.5 || cash!.x + cash!.width <= cards!.x + 0.5;
            expect(apart, `"Cash in bank" ${JSON.stringify(cash)} runs into "Owed on cards" ${JSON.stringify(cards)}`).toBe(true);
            if (size === 'phone') expect(cards!.y, 'at 390 px the figures stack').toBeGreaterThanOrEqual(cash!.y + cash!.height - 0.5);
            // The runway card: its figure reads as words or months (never "3100.5 months") and no label is cut.
            const runway = p.locator('section').filter({ has: p.getByRole('heading', { name: 'Runway', exact: true }) });
            await runway.scrollIntoViewIfNeeded();
            const figure = await visible(runway.getByText(/^(Not burning cash|Less than a month|More than 8 years|\d{1,2}\.\d months?)$/));
            for (const text of [figure, runway.getByText("Cash at the month's end"), runway.getByText('Average net burn a month')]) {
              expect(await text.evaluate((e) => e.scrollWidth <= e.clientWidth + 0.5), `"${await text.innerText()}" is not cut (${size})`).toBe(true);
              const box = (await text.boundingBox())!;
              const card = (await runway.boundingBox())!;
              expect(box.x + box.width, `"${await text.innerText()}" stays inside its card (${size})`).toBeLessThanOrEqual(card.x + card.width + 0.5);
            }
            await runway.screenshot({ path: new URL(`layout-runway-${size}.png`, SCREENSHOTS).pathname });
          },
        );

        await page.goto('/transactions?tab=review');
        await bothSizes(page, 'transactions', (p) => visible(p.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first()));

        await page.goto('/accounting?tab=coa');
        await bothSizes(page, 'chart-of-accounts', (p) => visible(p.getByRole('table', { name: 'Chart of accounts' }).locator('tbody tr').first()));

        await page.goto('/accounting?tab=ledger');
        await bothSizes(page, 'general-ledger', (p) => visible(p.getByRole('table', { name: 'General ledger' }).locator('tbody tr').first()));

        await page.goto('/reports?tab=pnl');
        await bothSizes(
          page,
          'reports',
          (p) => visible(p.getByRole('table', { name: 'Profit and loss' })),
          async (p, size) => {
            // Months hidden to the right of a report that scrolls sideways show as a shade at its right edge, gone
            // once scrolled to the end (the year by month is wider than the card at both sizes with this data).
            const scroller = p.getByRole('table', { name: 'Profit and loss' }).locator('xpath=..');
            const wider = await scroller.evaluate((e) => e.scrollWidth > e.clientWidth + 1);
            const shade = p.locator('[data-more-columns]');
            expect(await shade.count(), `the shade of hidden columns (${size}, table wider than its box: ${wider})`).toBe(wider ? 1 : 0);
            if (!wider) return;
            const [shadeBox, box] = [await shade.boundingBox(), await scroller.boundingBox()];
            expect(Math.abs(shadeBox!.x + shadeBox!.width - (box!.x + box!.width)), 'the shade sits on the right edge').toBeLessThanOrEqual(1);
            expect(shadeBox!.height, 'the shade is as tall as the report').toBeGreaterThanOrEqual(box!.height - 1);
            await scroller.evaluate((e) => e.scrollTo({ left: e.scrollWidth }));
            await shade.waitFor({ state: 'detached' });
            await p.screenshot({ path: new URL(`layout-reports-scrolled-${size}.png`, SCREENSHOTS).pathname });
            await scroller.evaluate((e) => e.scrollTo({ left: 0 }));
            await shade.waitFor({ state: 'visible' });
          },
        );

        await page.goto('/settings');
        await bothSizes(page, 'settings', (p) => visible(p.getByRole('heading', { name: 'Settings', level: 1 })));
      });
    },
    TEST_MS,
  );

  it(
    'at 390 px: the menu button opens the navigation, each transaction is a card, a dialog and the drawer fill the screen',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);
        await page.setViewportSize(PHONE);
        await page.goto('/dashboard');
        await visible(page.getByTestId('cash-in-bank'));

        // The side navigation is gone; the menu button opens a panel inside the window with every item.
        expect(await page.getByRole('navigation', { name: 'Main' }).count(), 'no navigation before the menu opens').toBe(0);
        const menu = await visible(page.getByRole('button', { name: 'Menu', exact: true }));
        await expectInsideWindow(page, menu, 'the menu button');
        await menu.click();
        const nav = await visible(page.getByRole('navigation', { name: 'Main' }));
        await expectInsideWindow(page, nav, 'the open menu');
        for (const label of ['Dashboard', 'Transactions', 'Accounting', 'Reports'])
          await expectInsideWindow(page, nav.getByRole('link', { name: label, exact: true }), `the ${label} item`);
        await page.screenshot({ path: new URL('layout-menu-phone.png', SCREENSHOTS).pathname });
        await nav.getByRole('link', { name: 'Transactions', exact: true }).click();
        await waitForPath(page, '/transactions');
        await nav.waitFor({ state: 'detached' });
        await visible(page.getByRole('button', { name: 'Menu', exact: true }));

        // Escape closes the menu too.
        await page.getByRole('button', { name: 'Menu', exact: true }).click();
        await visible(page.getByRole('navigation', { name: 'Main' }));
        await page.keyboard.press('Escape');
        await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'detached' });

        // Each transaction a card: no column header, and date, description, amount, account, category and finalize on
        // the card, inside the window, the category field wide enough to read.
        const table = page.getByRole('table', { name: 'Transactions' });
        const cards = table.locator('tbody tr');
        await visible(cards.first());
        expect(await table.locator('thead').evaluate((e) => e.getBoundingClientRect().width), 'the column header is hidden').toBeLessThanOrEqual(1);
        await expectNoHorizontalScroll(page, 'transactions cards');
        for (let i = 0; i < 3; i++) {
          const card = cards.nth(i);
          await card.scrollIntoViewIfNeeded();
          expect(await card.evaluate((e) => getComputedStyle(e).display), 'a row is laid out as a card').toBe('grid');
          const cells = card.getByRole('cell');
          expect(await cells.count()).toBe(7);
          for (let c = 0; c < 7; c++) await expectInsideWindow(page, cells.nth(c), `card ${i + 1}, cell ${c + 1}`, true);
          const [date, description, account, category, amount, actions] = [1, 2, 3, 4, 5, 6].map((c) => cells.nth(c));
          expect((await date!.innerText()).trim()).toMatch(/^\d{2}\/\d{2}\/\d{2}$/);
          expect((await amount!.innerText()).trim()).toMatch(/\$[\d,]+\.\d{2}$/);
          expect((await description!.innerText()).trim().length).toBeGreaterThan(0);
          expect((await account!.innerText()).trim().length).toBeGreaterThan(0);
          await visible(actions!.getByRole('button', { name: /^(Un-)?[Ff]inalize / }));
          const picker = category!.getByRole('combobox');
          if ((await picker.count()) > 0) expect((await picker.boundingBox())!.width, 'the category field spans the card').toBeGreaterThanOrEqual(280);
          // Date and amount share the card's first line; the description is under them.
          const [dateBox, amountBox, descriptionBox] = await Promise.all([date!.boundingBox(), amount!.boundingBox(), description!.boundingBox()]);
          expect(Math.abs(dateBox!.y - amountBox!.y), 'date and amount on one line').toBeLessThanOrEqual(4);
          expect(descriptionBox!.y).toBeGreaterThanOrEqual(dateBox!.y + dateBox!.height - 0.5);
        }
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: new URL('layout-transactions-cards-phone.png', SCREENSHOTS).pathname });

        // The drawer and a dialog over it fill the screen.
        const first = cards.first();
        await first.getByRole('button', { name: /^Details of / }).click();
        const drawer = page.locator('aside[role="dialog"]');
        await visible(drawer.getByRole('button', { name: 'Close transaction details' }));
        expect(await drawer.boundingBox()).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
        const split = drawer.getByRole('button', { name: /^(Split|Edit split)$/ });
        if (await split.isEnabled()) {
          await split.click();
          const panel = await visible(page.locator('[data-dialog-panel]'));
          // Measured once the open transition is over.
          expect(await settledBox(panel, 'the split dialog'), 'the dialog is a full-screen sheet').toEqual({
            x: 0,
            y: 0,
            width: PHONE.width,
            height: PHONE.height,
          });
          await expectNoHorizontalScroll(page, 'the split dialog');
          await page.screenshot({ path: new URL('layout-dialog-sheet-phone.png', SCREENSHOTS).pathname });
          await page.getByRole('button', { name: 'Cancel', exact: true }).click();
          await panel.waitFor({ state: 'detached' });
        }
        await page.screenshot({ path: new URL('layout-drawer-phone.png', SCREENSHOTS).pathname });

        // From 62em the side navigation is back and the menu button gone; from 48em the table has its columns.
        await page.keyboard.press('Escape');
        await page.setViewportSize(DESKTOP);
        await visible(page.getByRole('navigation', { name: 'Main' }));
        expect(await page.getByRole('button', { name: 'Menu', exact: true }).isVisible()).toBe(false);
        expect(await cards.first().evaluate((e) => getComputedStyle(e).display)).toBe('table-row');
      });
    },
    TEST_MS,
  );
});
