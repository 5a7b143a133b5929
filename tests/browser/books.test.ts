// Issue #12's "Must show" in real Chromium against the real stack (banking with the Plaid sandbox, the ledger and
// reporting behind the gateway, the built shell and remotes): a workspace links First Platypus Bank (checking,
// savings, a card) whose history ends last year; the dashboard's cash equals the bank's total and says "Matches bank";
// a transfer between checking and savings (both legs added through the sandbox's controls, then a sync) appears once
// as a paired transfer (the drawer shows and links the pair) and in neither income nor top merchants; the new year's
// profit and loss starts at zero while the balance sheet carries the earlier years' net income in Retained Earnings.
// Each screen is checked at 1440×900 and 390×844, light and dark: no horizontal overflow, and the new badges, notices
// and the drawer have sane boxes. Screenshots go to test-results/screenshots/books-*.png after each run.
import { mkdirSync } from 'node:fs';
import { expectEventually } from '@ledgerline/platform/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, signedUpUser, PASSWORD, type System } from '../support/system.js';
import { inFreshPage, launchBrowser, logInThroughForm, startLedgerWebSystem, STEP_MS, visible, waitForPath, settledLayout } from './support.js';

type BooksSystem = System & { webUrl: string; plaid: NonNullable<System['plaid']> };
let system: BooksSystem;
let browser: Browser;

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);

beforeAll(async () => {
  [system, browser] = await Promise.all([startLedgerWebSystem({ reporting: true }), launchBrowser()]);
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

const PLATYPUS = 'ins_109508';
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = (dollars: number): string => usd.format(Math.round(dollars * 100) === 0 ? 0 : Math.round(dollars * 100) / 100);
const pad = (n: number) => String(n).padStart(2, '0');
const iso = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const today = iso(new Date());
const year = new Date().getFullYear();
const lastYear = { startDate: `${year - 1}-01-01`, endDate: `${year - 1}-12-31` };
const thisYear = { startDate: `${year}-01-01`, endDate: today };

interface Account {
  id: string;
  name: string;
  mask: string;
  type: string;
  subtype: string;
  currentBalance: number | null;
  tieOut: { status: string; bankBalance: number; booksBalance: number; difference: number; ledgerAccountId: string } | null;
}
interface ReportRow {
  id: string | null;
  name: string;
  rowType: string;
  amounts: number[];
  total: number;
  children: ReportRow[];
}
const flatten = (rows: readonly ReportRow[]): ReportRow[] => rows.flatMap((r) => [r, ...flatten(r.children)]);

interface Books {
  email: string;
  token: string;
  workspaceId: string;
  itemId: string;
  accounts: Account[];
}

/**
 * An onboarded Owner who linked First Platypus Bank with a history that ends on 31 December of last year (so this
 * year's books hold nothing yet), once banking synced it, the ledger booked it and every account ties to the bank.
 */
async function linkedBooks(): Promise<Books> {
  const { email, token, user } = await signedUpUser(system);
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  const publicToken = system.plaid.createPublicToken({
    institution_id: PLATYPUS,
    initial_products: ['transactions'],
    options: {
      transactions: { start_date: lastYear.startDate, end_date: lastYear.endDate },
      ledgerline: { transactions: 150, seed: 12, initial_webhook: false, transfers: false },
    },
  } as never);
  const item = system.plaid.listItems().at(-1);
  const institution = system.plaid.institutions().find((i) => i.institutionId === PLATYPUS);
  if (!item || !institution) throw new Error('the Plaid sandbox made no item');
  const body = {
    publicToken,
    accounts: item.accounts.map((a) => ({
      id: a.account_id,
      name: a.name,
      mask: a.mask,
      type: a.subtype === 'credit card' ? 'credit' : 'depository',
      subtype: a.subtype,
    })),
    institution: { name: institution.name, institution_id: institution.institutionId },
  };
  const linked = await system.api('POST', '/accounts', { token, body });
  if (linked.status !== 200) throw new Error(`POST /accounts answered ${linked.status}: ${JSON.stringify(linked.body)}`);
  const accounts = await tiedAccounts(token);
  expect(accounts.map((a) => a.mask).sort()).toEqual(['0000', '1111', '3333']);
  return { email, token, workspaceId: user.workspace.id, itemId: item.item_id, accounts };
}

/** GET /accounts once no sync job is running and every account's books match its bank (issue #12 item 2). */
function tiedAccounts(token: string): Promise<Account[]> {
  return expectEventually(
    async () => {
      const jobs = await system.api('GET', '/jobs', { token });
      const busy = (jobs.body?.jobs ?? []).some((j: { status: string }) => ['waiting', 'delayed', 'active'].includes(j.status));
      expect(busy, 'a sync job is still running').toBe(false);
      const answer = await system.api('GET', '/accounts', { token });
      expect(answer.status).toBe(200);
      const accounts = answer.body.accounts as Account[];
      expect(accounts).toHaveLength(3);
      for (const a of accounts) {
        expect(a.tieOut, `${a.name} carries no tieOut`).not.toBeNull();
        expect(a.tieOut, `${a.name} does not tie out`).toMatchObject({ status: 'matches', difference: 0 });
        expect(a.tieOut!.booksBalance).toBe(a.currentBalance);
      }
      return accounts;
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
}

const isCard = (a: Account) => a.type === 'credit' || a.subtype === 'credit card';

async function signIn(page: Page, email: string): Promise<void> {
  await logInThroughForm(page, email, PASSWORD);
  await waitForPath(page, '/dashboard');
}

const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((t) => {
    document.documentElement.classList.toggle('dark', t === 'dark');
    document.documentElement.style.colorScheme = t;
  }, theme);
}

/** Nothing wider than the window: the page never scrolls sideways (tables scroll inside their own box). */
async function expectNoHorizontalOverflow(page: Page, where: string): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, `${where}: the page is ${scroll}px wide in a ${client}px window`).toBeLessThanOrEqual(client);
}

/** A box that is on screen, inside the window's width, and of a size its kind should have. */
async function expectSaneBox(locator: Locator, where: string, size: { minWidth?: number; maxHeight?: number } = {}): Promise<void> {
  const box = await locator.boundingBox();
  expect(box, `${where}: not laid out`).not.toBeNull();
  const viewport = locator.page().viewportSize()!;
  expect(box!.width, `${where}: width`).toBeGreaterThanOrEqual(size.minWidth ?? 8);
  expect(box!.height, `${where}: height`).toBeGreaterThan(8);
  if (size.maxHeight !== undefined) expect(box!.height, `${where}: height`).toBeLessThanOrEqual(size.maxHeight);
  expect(box!.x, `${where}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${where}: right edge`).toBeLessThanOrEqual(viewport.width + 0.5);
}

/** The screen at both sizes and in both themes: no sideways scroll, the named boxes sane, a screenshot of each. */
async function checkLayout(page: Page, name: string, boxes: (page: Page) => { locator: Locator; what: string; maxHeight?: number }[]): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await settledLayout(page);
      await expectNoHorizontalOverflow(page, `${name} ${viewport.name} ${theme}`);
      for (const { locator, what, maxHeight } of boxes(page))
        await expectSaneBox(locator, `${name} ${viewport.name}: ${what}`, maxHeight === undefined ? {} : { maxHeight });
      await page.screenshot({ path: new URL(`books-${name}-${viewport.name}-${theme}.png`, SCREENSHOTS).pathname, fullPage: true });
    }
  }
  await setTheme(page, 'light');
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe('books that tie to the bank', () => {
  it('shows cash that matches the bank, a transfer once as a pair outside income and top merchants, and a new year that starts at zero', async () => {
    const books = await linkedBooks();
    const { token } = books;
    const cash = books.accounts.filter((a) => !isCard(a));
    const bankCash = cash.reduce((sum, a) => sum + Math.round((a.currentBalance ?? 0) * 100), 0) / 100;
    const checking = books.accounts.find((a) => a.subtype === 'checking')!;
    const savings = books.accounts.find((a) => a.subtype === 'savings')!;

    // Last year's net income, as the profit and loss of last year says it (what Retained Earnings must carry).
    const lastYearPnl = await system.api(
      'GET',
      `/financial-data/profit-loss/v3?startDate=${lastYear.startDate}&endDate=${lastYear.endDate}&periodicity=yearly&excludeZeroes=true`,
      { token },
    );
    expect(lastYearPnl.status).toBe(200);
    const priorNetIncome = flatten(lastYearPnl.body.report.data as ReportRow[]).find((r) => r.rowType === 'summary' && r.name === 'Net Income')!.total;
    expect(priorNetIncome).not.toBe(0);

    await inFreshPage(browser, system.webUrl, async (page) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, books.email);

      // ── The dashboard: cash in bank = the bank's total, "Matches bank". ─────────────────────────────────────────
      const cashFigure = await visible(page.getByTestId('cash-in-bank'));
      await visible(cashFigure.getByText(money(bankCash), { exact: true }));
      await visible(cashFigure.getByText('Matches bank', { exact: true }));
      await visible(cashFigure.getByText(`Bank ${money(bankCash)}`, { exact: true }));
      // The card's figure from the books ties too, and the cash balance chart's headline says the same figure.
      await visible(page.getByTestId('owed-on-cards').getByText('Matches bank', { exact: true }));
      await visible(page.getByText('Cash in bank today, as in Bank accounts above'));
      // The old second figure ('Cash balance … from the books', which contradicted the first) is gone.
      expect(await page.getByText(/cash balance[^.]*from the books/i).count()).toBe(0);
      await checkLayout(page, 'dashboard', (p) => [
        { locator: p.getByTestId('cash-in-bank').locator('[data-tie-out]'), what: 'the cash badge', maxHeight: 40 },
        { locator: p.getByTestId('cash-in-bank'), what: 'the cash figure' },
      ]);

      // ── /connect-accounts: per account bank, books, "Matches bank" and its ledger. ──────────────────────────────
      await page.goto('/connect-accounts');
      const bank = page.getByRole('region', { name: 'First Platypus Bank' });
      for (const a of books.accounts) {
        const row = await visible(bank.getByRole('listitem', { name: `${a.name} •••• ${a.mask}` }));
        await visible(row.getByText('Matches bank', { exact: true }));
        expect(await row.getByText(money(a.currentBalance ?? 0), { exact: true }).count()).toBe(2); // bank and books
        expect(await row.getByRole('link', { name: 'Ledger' }).getAttribute('href')).toBe(`/accounting?tab=ledger&ledgerAccount=${a.tieOut!.ledgerAccountId}`);
      }
      await checkLayout(page, 'accounts', (p) => [{ locator: p.locator('[data-tie-out]').first(), what: 'an account badge', maxHeight: 40 }]);
      await bank
        .getByRole('listitem', { name: `${checking.name} •••• ${checking.mask}` })
        .getByRole('link', { name: 'Ledger' })
        .click();
      await waitForPath(page, '/accounting');
      expect(new URL(page.url()).searchParams.get('ledgerAccount')).toBe(checking.tieOut!.ledgerAccountId);

      // ── A transfer from checking to savings: both legs through the sandbox, then a sync. ────────────────────────
      const amount = 1_250.4;
      await system.plaid.addTransactions(books.itemId, {
        transactions: [
          // Plaid's sign: positive is money out of the account.
          { account_id: accountIdOf(books, checking), amount, date: today, name: 'Online Transfer to Savings', merchant_name: null },
          { account_id: accountIdOf(books, savings), amount: -amount, date: today, name: 'Online Transfer from Checking', merchant_name: null },
        ],
        webhook: false,
      });
      const synced = await system.api('POST', '/transactions/sync', { token, body: { accountId: checking.id } });
      expect(synced.status).toBe(200);
      const legs = await expectEventually(
        async () => {
          // The sandbox's own history holds transfers too: this one is today's, of this amount.
          const answer = await system.api(
            'GET',
            `/transactions/v2?description=Online%20Transfer&amount=${amount}&startDate=${today}&endDate=${today}&take=100`,
            { token },
          );
          expect(answer.status).toBe(200);
          const data = answer.body.data as { id: string; amount: number; transferStatus: string | null; transferPair: { id: string } | null }[];
          expect(data).toHaveLength(2);
          for (const t of data) expect(t.transferStatus).toBe('paired');
          return data;
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      // Each side names the other: one pair.
      expect(legs[0]!.transferPair!.id).toBe(legs[1]!.id);
      expect(legs[1]!.transferPair!.id).toBe(legs[0]!.id);
      await tiedAccounts(token);

      // The list: both legs with the transfer badge and the reason they cannot be edited.
      await page.goto('/transactions?tab=all');
      await page.getByRole('searchbox', { name: 'Description' }).fill('Online Transfer');
      const rows = page.locator('tr[data-transaction-id]');
      await expect.poll(() => rows.count(), { timeout: STEP_MS }).toBe(2);
      for (const row of await rows.all()) {
        await visible(row.locator('[data-badge="transfer"]').getByText('⇄ Transfer', { exact: true }));
        await visible(row.getByText('Transfer transactions cannot be edited. Unpair the transfer first.', { exact: true }));
      }
      const out = legs.find((t) => t.amount < 0) ?? legs[0]!;
      const into = legs.find((t) => t.id !== out.id)!;
      await page
        .locator(`tr[data-transaction-id="${out.id}"]`)
        .getByRole('button', { name: /^Details of/ })
        .click();
      const drawer = await visible(page.getByRole('dialog'));
      const pair = await visible(drawer.getByTestId('transfer-pair'));
      // The ledger names a bank account with its mask: 'Plaid Saving ••1111'.
      await visible(pair.getByText(`${savings.name} ••${savings.mask}`, { exact: true }));
      await visible(pair.getByText(money(amount), { exact: true }));
      await visible(pair.getByText('Online Transfer from Checking', { exact: true }));
      await visible(drawer.getByRole('button', { name: 'Unpair transfer' }));
      await checkLayout(page, 'transfer-drawer', (p) => [
        { locator: p.getByRole('dialog'), what: 'the drawer' },
        { locator: p.getByTestId('transfer-pair'), what: 'the pair' },
        { locator: p.locator('[data-badge="transfer"]').first(), what: 'a transfer badge', maxHeight: 32 },
      ]);
      // Unpair asks first; cancelling changes nothing.
      await drawer.getByRole('button', { name: 'Unpair transfer' }).click();
      // A dialog's own box is empty (its panel is fixed): wait on its heading, measure its panel.
      const confirm = page.getByRole('dialog', { name: 'Unpair this transfer?' });
      const confirmPanel = (await visible(confirm.getByRole('heading', { name: 'Unpair this transfer?' }))).locator('xpath=..');
      await expectSaneBox(confirmPanel, 'the unpair confirmation');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      await pair.getByRole('link', { name: 'Open the other side' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('txn'), { timeout: STEP_MS }).toBe(into.id);
      await visible(page.getByTestId('transfer-pair').getByText(`${checking.name} ••${checking.mask}`, { exact: true }));

      // ── Neither income nor top merchants: this year's books hold only the transfer. ──────────────────────────────
      const pnl = await system.api(
        'GET',
        `/financial-data/profit-loss/v3?startDate=${thisYear.startDate}&endDate=${thisYear.endDate}&periodicity=monthly&excludeZeroes=true`,
        { token },
      );
      expect(pnl.status).toBe(200);
      const pnlRows = flatten(pnl.body.report.data as ReportRow[]);
      for (const name of ['Income', 'Net Income']) expect(pnlRows.find((r) => r.name === name)?.total ?? 0, name).toBe(0);
      const merchants = await system.api('GET', `/financial-data/top-merchant?startDate=${thisYear.startDate}&endDate=${thisYear.endDate}`, { token });
      expect(merchants.status).toBe(200);
      expect(JSON.stringify(merchants.body)).not.toMatch(/Online Transfer/i);

      // ── The new year's P&L starts at zero; the balance sheet carries last year's net income. ────────────────────
      await page.goto(`/reports?tab=pnl&startDate=${thisYear.startDate}&endDate=${thisYear.endDate}`);
      // Nothing but the transfer is booked this year, and the transfer is no income or expense: every amount is zero,
      // which the screen says (zero amounts are hidden by default) instead of last year's figures.
      await visible(page.getByText('No income or expenses in this period', { exact: true }));
      expect(await page.getByRole('table', { name: 'Profit and loss' }).count()).toBe(0);
      expect(await page.getByText(/Online Transfer/).count()).toBe(0);
      await checkLayout(page, 'pnl-new-year', (p) => [
        { locator: p.getByText('No income or expenses in this period', { exact: true }), what: 'the empty P&L' },
      ]);

      await page.goto(`/reports?tab=balancesheet&startDate=${thisYear.startDate}&endDate=${thisYear.endDate}`);
      const sheet = await visible(page.getByRole('table', { name: 'Balance sheet' }));
      const retained = await visible(
        sheet
          .locator('tr')
          .filter({ has: page.getByRole('rowheader', { name: /^Retained Earnings/ }) })
          .first(),
      );
      const retainedCell = retained.locator('td').last();
      expect(await retainedCell.innerText()).toBe(money(priorNetIncome));
      const sheetNetIncome = sheet
        .locator('tr')
        .filter({ has: page.getByRole('rowheader', { name: /^Net Income/ }) })
        .first();
      expect(await sheetNetIncome.locator('td').last().innerText()).toBe(money(0));
      // A statement of twelve months is wider than a phone: it scrolls inside its own box, which must fit the window.
      await checkLayout(page, 'balance-sheet', (p) => [
        { locator: p.getByRole('table', { name: 'Balance sheet' }).locator('xpath=..'), what: "the balance sheet table's box" },
      ]);
      // Retained Earnings opens the profit and loss of the earlier years, whose Net Income is the same figure.
      await retainedCell.getByRole('link').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('tab'), { timeout: STEP_MS }).toBe('pnl');
      const drilled = new URL(page.url()).searchParams;
      expect(drilled.get('endDate')).toBe(lastYear.endDate);
      const earlier = await visible(page.getByRole('table', { name: 'Profit and loss' }));
      // The bookkeeper's layout: section headers, bold subtotals, Net Income as the bottom line.
      await visible(earlier.locator('tr[data-emphasis="section"]').first());
      const earlierNet = earlier.locator('tr[data-emphasis="grand-total"]').filter({ has: page.getByRole('rowheader', { name: 'Net Income', exact: true }) });
      await expect.poll(() => earlierNet.locator('td').last().innerText(), { timeout: STEP_MS }).toBe(money(priorNetIncome));
      await checkLayout(page, 'pnl-earlier-years', (p) => [
        { locator: p.getByRole('table', { name: 'Profit and loss' }).locator('xpath=..'), what: "the P&L table's box" },
      ]);
    });
  }, 300_000);
});

/** The sandbox's id of a linked account (POST /accounts answers ours; the sandbox knows its own). */
function accountIdOf(books: Books, account: Account): string {
  const item = system.plaid.listItems().find((i) => i.item_id === books.itemId);
  const match = item?.accounts.find((a) => a.mask === account.mask);
  if (!match) throw new Error(`the sandbox item has no account •••• ${account.mask}`);
  return match.account_id;
}
