// The /accounting screens in real Chromium against identity, the gateway and the ledger. Banking does not run:
// its events (a linked account, imported transactions) are published on the system's bus, as banking publishes
// them, so the dates and amounts are the test's own. A user adds an account (and meets the coaId rule first),
// drills from the chart of accounts into a bank account's ledger and its running balance, and changes the
// period with a preset and with typed dates.
import type { Browser, Page } from 'playwright-core';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingFor } from '../../services/ledger/test/support.js';
import { onboardBody, signedUpUser, PASSWORD, type System } from '../support/system.js';
import { field, inFreshPage, launchBrowser, logInThroughForm, notice, startLedgerOnlyWebSystem, TEST_MS, visible, waitForPath } from './support.js';

let system: System & { webUrl: string };
let browser: Browser;

beforeAll(async () => {
  [system, browser] = await Promise.all([startLedgerOnlyWebSystem(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

/** A signed-up, onboarded Owner; identity's workspace.created makes the ledger seed the default chart. */
async function owner(): Promise<{ email: string; token: string; workspaceId: string }> {
  const { email, token, user } = await signedUpUser(system);
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  return { email, token, workspaceId: user.workspace.id };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The local calendar day `daysAgo` days back, never before 1 January (the ledger tab opens on the year to date). */
function day(daysAgo: number): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo);
  const jan1 = new Date(now.getFullYear(), 0, 1);
  const at = d < jan1 ? jan1 : d;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
const typed = (iso: string) => `${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(0, 4)}`;

async function signIn(page: Page, email: string): Promise<void> {
  await logInThroughForm(page, email, PASSWORD);
  await waitForPath(page, '/dashboard');
}

describe('accounting screens', () => {
  it(
    'adds an account to the chart, after the coaId message for 9999',
    async () => {
      const { email } = await owner();
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page, email);
        await page.goto('/accounting?tab=coa');
        const chart = await visible(page.getByRole('table', { name: 'Chart of accounts' }));
        // The category types start open; their groups show.
        await visible(chart.getByText('Operating Expenses', { exact: true }));

        await page.getByRole('button', { name: 'Add account' }).click();
        // The dialog's own box is empty (its panel is fixed): wait on what it shows.
        const dialog = page.getByRole('dialog', { name: 'Add account' });
        const title = await visible(dialog.getByRole('heading', { name: 'Add account' }));
        await field(page, 'Name').fill('Team Lunches');
        await field(page, 'Account number (coaId)').fill('9999');
        await dialog.getByRole('combobox', { name: 'Parent account' }).fill('meals and');
        await page.getByRole('option', { name: /Operating Expenses \/ Meals and Entertainment \(60300\)/ }).click();
        await dialog.getByRole('button', { name: 'Add account' }).click();
        await visible(dialog.getByText('coaId must be minimum 5 digits number', { exact: true }));

        await field(page, 'Account number (coaId)').fill('60310');
        await dialog.getByText('coaId must be minimum 5 digits number').waitFor({ state: 'hidden' });
        await dialog.getByRole('button', { name: 'Add account' }).click();
        await visible(notice(page, 'status', 'Successfully added'));
        await title.waitFor({ state: 'hidden' });

        // The new account is shown where it went: its parents opened, its number beside it.
        const row = chart.getByRole('row').filter({ has: page.getByRole('button', { name: 'Team Lunches', exact: true }) });
        await visible(row);
        expect(await row.getByRole('cell').nth(1).textContent()).toBe('60310');
        expect(await row.getByRole('cell').nth(3).textContent()).toBe('$0.00');

        // Rename it.
        await chart.getByRole('button', { name: 'Actions for Team Lunches' }).click();
        await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
        const editTitle = await visible(page.getByRole('heading', { name: 'Edit Team Lunches' }));
        await field(page, 'Name').fill('Team Meals');
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await visible(notice(page, 'status', 'Category updated successfully.'));
        await editTitle.waitFor({ state: 'hidden' });
        await visible(chart.getByRole('button', { name: 'Team Meals', exact: true }));

        // Move it under Travel: it is shown there, right below its new parent.
        await chart.getByRole('button', { name: 'Actions for Team Meals' }).click();
        await page.getByRole('menuitem', { name: 'Move', exact: true }).click();
        const moveTitle = await visible(page.getByRole('heading', { name: 'Move Team Meals' }));
        await page.getByRole('combobox', { name: 'New parent account' }).fill('travel');
        await page.getByRole('option', { name: /Operating Expenses \/ Travel \(61100\)/ }).click();
        await page.getByRole('button', { name: 'Move', exact: true }).click();
        await moveTitle.waitFor({ state: 'hidden' });
        await expectEventually(async () => {
          const names = (await chart.getByRole('row').allTextContents()).map((t) => t.replace(/\s+/g, ' '));
          const travel = names.findIndex((t) => t.includes('Travel61100'));
          expect(travel).toBeGreaterThan(0);
          expect(names[travel + 1]).toContain('Team Meals60310');
        });

        // Remove it: nothing was booked to it.
        await chart.getByRole('button', { name: 'Actions for Team Meals' }).click();
        await page.getByRole('menuitem', { name: 'Remove', exact: true }).click();
        await visible(page.getByRole('heading', { name: 'Remove Team Meals?' }));
        await page.getByRole('button', { name: 'Remove', exact: true }).click();
        await visible(notice(page, 'status', 'Successfully removed the chart of account'));
        await chart.getByRole('button', { name: 'Team Meals', exact: true }).waitFor({ state: 'detached' });

        // An account with nothing booked opens an empty ledger that still names it.
        await chart.getByRole('button', { name: 'Travel', exact: true }).click();
        await visible(page.getByRole('heading', { name: 'Travel (61100)' }));
        await visible(page.getByText('Nothing was booked to this account in the period.'));
      });
    },
    TEST_MS,
  );

  it(
    "drills from the chart of accounts into a bank account's lines and running balance, and changes the period",
    async () => {
      const { email, token, workspaceId } = await owner();
      const bank = bankingFor(system.bus, workspaceId);
      const accountId = await bank.link({ name: 'Business Checking', mask: '4321' });
      const year = Number(day(0).slice(0, 4));
      // Last year's dinner is categorised below: its reversal and new entry keep its date, so this year opens at -$60.00.
      await bank.add(accountId, { amountCents: -6_000, date: `${year - 1}-06-15`, name: 'Team dinner' });
      await bank.add(accountId, { amountCents: 250_000, date: day(2), name: 'Client payment' });
      await bank.add(accountId, { amountCents: -4_550, date: day(1), name: 'Coffee Roasters' });
      await bank.add(accountId, { amountCents: -12_025, date: day(0), name: 'Office Depot' });
      await expectEventually(
        async () => {
          const listed = await system.api('GET', '/transactions/v2?take=10', { token, workspace: workspaceId });
          expect(listed.body?.meta?.itemCount).toBe(4);
        },
        { timeoutMs: 20_000 },
      );

      // The dinner is booked to Meals and Entertainment, which then has lines.
      const categories = await system.api('GET', '/categories', { token, workspace: workspaceId });
      const meals = (categories.body.categories as { id: string; name: string }[]).find((c) => c.name === 'Meals and Entertainment');
      const listed = await system.api('GET', '/transactions/v2?take=10', { token, workspace: workspaceId });
      const byName = (name: string) => (listed.body.data as { id: string }[]).find((t) => JSON.stringify(t).includes(name));
      const dinner = byName('Team dinner');
      const coffee = byName('Coffee Roasters');
      if (!meals || !dinner || !coffee) throw new Error('no Meals and Entertainment account or a transaction missing');
      const categorised = await system.api('PATCH', `/transactions/${dinner.id}`, { token, workspace: workspaceId, body: { categoryId: meals.id } });
      expect(categorised.status).toBe(200);

      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page, email);
        await page.goto('/accounting?tab=coa');
        const chart = await visible(page.getByRole('table', { name: 'Chart of accounts' }));

        // The server refuses to remove an account with lines, and the dialog says why.
        await chart.getByRole('button', { name: 'Expand Operating Expenses' }).click();
        await chart.getByRole('button', { name: 'Actions for Meals and Entertainment' }).click();
        await page.getByRole('menuitem', { name: 'Remove', exact: true }).click();
        await page.getByRole('button', { name: 'Remove', exact: true }).click();
        await visible(page.getByRole('dialog').getByRole('alert').getByText('This account has transactions and cannot be removed', { exact: true }));
        await page.getByRole('button', { name: 'Close', exact: true }).click();
        await visible(chart.getByRole('button', { name: 'Meals and Entertainment', exact: true }));

        await chart.getByRole('button', { name: 'Expand Current Assets' }).click();
        await chart.getByRole('button', { name: 'Expand Cash and Cash Equivalents' }).click();
        const bankRow = chart.getByRole('row').filter({ has: page.getByRole('button', { name: 'Business Checking ••4321', exact: true }) });
        expect(await bankRow.getByRole('cell').nth(3).textContent()).toBe('$2,274.25');
        // Balances as of the end of last year: only the dinner, in the account and in its group's total.
        const asOf = page.getByRole('textbox', { name: 'Balances as of', exact: true });
        await asOf.fill('');
        await asOf.pressSequentially(`1231${year - 1}`);
        await page.waitForURL((url) => url.searchParams.get('endDate') === `${year - 1}-12-31`);
        await expectEventually(async () => expect(await bankRow.getByRole('cell').nth(3).textContent()).toBe('-$60.00'));
        const cashRow = chart.getByRole('row').filter({ has: page.getByRole('button', { name: 'Cash and Cash Equivalents', exact: true }) });
        expect(await cashRow.getByRole('cell').nth(3).textContent()).toBe('-$60.00');
        await bankRow.getByRole('button', { name: 'Business Checking ••4321', exact: true }).click();

        await page.waitForURL(
          (url) => url.searchParams.get('tab') === 'ledger' && url.searchParams.has('ledgerAccount') && url.searchParams.get('endDate') === day(0),
        );
        expect(new URL(page.url()).searchParams.get('startDate')).toBe(`${day(0).slice(0, 4)}-01-01`);
        const lines = await visible(page.getByRole('table', { name: 'Ledger lines' }));
        await visible(lines.getByText('Office Depot', { exact: true }));
        const cells = async (text: string) => (await lines.getByRole('row').filter({ hasText: text }).getByRole('cell').allInnerTexts()).map((c) => c.trim());
        // Date, description (with the account booked against), debit, credit, running balance.
        expect((await cells('Opening balance')).slice(1)).toEqual(['Opening balance', '', '', '-$60.00']);
        expect((await cells('Client payment')).slice(2)).toEqual(['$2,500.00', '', '$2,440.00']);
        expect((await cells('Coffee Roasters')).slice(2)).toEqual(['', '$45.50', '$2,394.50']);
        expect((await cells('Office Depot')).slice(2)).toEqual(['', '$120.25', '$2,274.25']);
        expect((await cells('Coffee Roasters'))[1]).toContain('Uncategorised Expense');

        // Selecting a line puts it in the URL and links the bank transaction it books.
        await lines.getByRole('button', { name: 'Coffee Roasters', exact: true }).click();
        await page.waitForURL((url) => url.searchParams.has('ledgerTxn'));
        const selected = await visible(page.getByRole('region', { name: 'Selected line' }));
        expect(await selected.getByRole('link', { name: 'Open transaction' }).getAttribute('href')).toBe(`/transactions?txn=${coffee.id}`);
        // Opened from its address, the line is selected again.
        await page.reload();
        await visible(page.getByRole('region', { name: 'Selected line' }));
        expect(await page.getByRole('table', { name: 'Ledger lines' }).getByRole('row', { selected: true }).textContent()).toContain('Coffee Roasters');
        // A link from another screen may name the transaction instead of the line.
        const byTransaction = new URL(page.url());
        byTransaction.searchParams.set('ledgerTxn', coffee.id);
        await page.goto(byTransaction.pathname + byTransaction.search);
        await visible(page.getByRole('region', { name: 'Selected line' }));
        expect(await page.getByRole('table', { name: 'Ledger lines' }).getByRole('row', { selected: true }).textContent()).toContain('Coffee Roasters');

        // A preset: the previous year holds the dinner and none of this year's lines. The dinner was booked, reversed
        // and booked again to Meals and Entertainment; the bank register shows it once, with its current category.
        await page.getByRole('button', { name: /^Period/ }).click();
        await page.getByRole('button', { name: 'Previous Year' }).click();
        expect(await field(page, 'Start date').inputValue()).toBe(`01/01/${year - 1}`);
        expect(await field(page, 'End date').inputValue()).toBe(`12/31/${year - 1}`);
        await page.getByRole('button', { name: 'Save' }).click();
        await page.waitForURL((url) => url.searchParams.get('startDate') === `${year - 1}-01-01` && url.searchParams.get('endDate') === `${year - 1}-12-31`);
        await visible(lines.getByRole('row').filter({ hasText: 'Team dinner' }).first());
        await lines.getByText('Office Depot').waitFor({ state: 'hidden' });
        const dinnerRows = (await lines.getByRole('row').filter({ hasText: 'Team dinner' }).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
        expect(dinnerRows).toHaveLength(1);
        expect(dinnerRows[0]).toContain('Meals and Entertainment');
        expect((await cells('Opening balance')).at(-1)).toBe('$0.00');
        expect(dinnerRows.map((t) => /-?\$[\d,.]+$/.exec(t)?.[0])).toEqual(['-$60.00']);

        // Typed dates: slashes appear while typing; a bad date and a start after the end keep Save disabled.
        await page.getByRole('button', { name: /^Period/ }).click();
        const start = field(page, 'Start date');
        const end = field(page, 'End date');
        const save = page.getByRole('button', { name: 'Save' });
        await start.fill('');
        await start.pressSequentially('13452026');
        expect(await start.inputValue()).toBe('13/45/2026');
        await visible(page.getByText('Invalid date', { exact: true }));
        expect(await save.isDisabled()).toBe(true);

        await start.fill('');
        await start.pressSequentially(typed(day(0)));
        await visible(page.getByText('Start date cannot be greater than End date', { exact: true }));
        expect(await save.isDisabled()).toBe(true);

        await end.fill('');
        await end.pressSequentially(typed(day(0)));
        await page.getByText('Start date cannot be greater than End date').waitFor({ state: 'hidden' });
        await start.fill('');
        await start.pressSequentially(typed(day(2)));
        expect(await save.isEnabled()).toBe(true);
        await save.click();
        await page.waitForURL((url) => url.searchParams.get('startDate') === day(2) && url.searchParams.get('endDate') === day(0));
        await visible(page.getByRole('table', { name: 'Ledger lines' }).getByText('Office Depot', { exact: true }));
      });
    },
    TEST_MS,
  );
  it(
    "fetches an account's further lines as the person scrolls (spec §9) and ends at the account's balance",
    async () => {
      const { email, token, workspaceId } = await owner();
      const bank = bankingFor(system.bus, workspaceId);
      const accountId = await bank.link({ name: 'Payroll Account', mask: '7788' });
      const count = 100;
      let total = 0;
      for (let i = 0; i < count; i++) {
        const cents = (i + 1) * 100 * (i % 4 === 0 ? 1 : -1);
        total += cents;
        await bank.add(accountId, { amountCents: cents, date: day(i % 2), name: `Payment ${i + 1}` });
      }
      await expectEventually(
        async () => {
          const listed = await system.api('GET', '/transactions/v2?take=1', { token, workspace: workspaceId });
          expect(listed.body?.meta?.itemCount).toBe(count);
        },
        { timeoutMs: 30_000 },
      );
      const chart = await system.api('GET', '/categories/chart-of-accounts', { token, workspace: workspaceId });
      const find = (nodes: { id: string; bankAccountId: string | null; children: never[] }[]): string | undefined =>
        nodes.map((n) => (n.bankAccountId === accountId ? n.id : find(n.children))).find((id) => id !== undefined);
      const ledgerAccount = find(chart.body.chartOfAccounts);
      if (!ledgerAccount) throw new Error('the bank account has no ledger account');

      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page, email);
        await page.goto(`/accounting?tab=ledger&ledgerAccount=${ledgerAccount}&startDate=${day(1).slice(0, 4)}-01-01&endDate=${day(0)}`);
        const lines = await visible(page.getByRole('table', { name: 'Ledger lines' }));
        const counter = page.getByText(new RegExp(`^\\d+ of ${count} lines$`));
        await visible(counter);
        const shown = async () => Number(/^(\d+)/.exec((await counter.textContent()) ?? '')?.[1]);
        expect(await shown()).toBeLessThan(count);
        // Scrolling the lines to their end brings the next pages, until every line is there.
        await expectEventually(
          async () => {
            await lines.evaluate((table) => {
              const scroller = table.parentElement as HTMLElement;
              scroller.scrollTop = scroller.scrollHeight;
            });
            expect(await shown()).toBe(count);
          },
          { timeoutMs: 20_000 },
        );
        await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
        const last = (await lines.getByRole('row').last().getByRole('cell').allInnerTexts()).at(-1);
        expect(last).toBe(`${total < 0 ? '-' : ''}$${(Math.abs(total) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
      });
    },
    TEST_MS,
  );
});
