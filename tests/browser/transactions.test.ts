// The /transactions screens in real Chromium against the real stack: banking imports a Plaid sandbox bank, the
// ledger books every transaction, and a person reviews them — the list 20 a page with infinite scroll,
// categorising from the review tab, 'Add: "…"' in the category dropdown, a split (a wrong sum refused, the right
// one booked) and finalizing. Messages are the spec's (§8), verbatim.
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, type System } from '../support/system.js';
import {
  field,
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
} from './support.js';

interface Txn {
  id: string;
  amount: number;
  memo: string;
  biller: { name: string } | null;
  category: { id: string; name: string } | null;
  isTransactionFinalized: boolean;
  isSplittedParent: boolean;
  splittedChildren: { amount: number; categoryName: string }[];
}

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);

let system: System & { webUrl: string; plaid: NonNullable<System['plaid']> };
let browser: Browser;
let email: string;
let token: string;
let imported: number;
/** Outflows of the review tab's first page, newest first; each test takes its own. */
let outflows: Txn[];

beforeAll(async () => {
  [system, browser] = await Promise.all([startLedgerWebSystem(), launchBrowser()]);
  const user = await signedUpUser(system);
  email = user.email;
  token = user.token;
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  // More than 2.2 viewports of dense rows hold (spec §9 fetches until they are full), so scrolling has pages to bring.
  imported = await importBankTransactions(system, token, 120);
  const review = await system.api('GET', '/transactions/v2?finalization=nonFinalized&take=20', { token });
  outflows = (review.body.data as Txn[]).filter((t) => t.amount <= -2);
  if (outflows.length < 6) throw new Error(`the sandbox's first page has ${outflows.length} outflows of $2 or more; the tests need 6`);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

const describeTxn = (t: Txn) => t.biller?.name || t.memo;
const row = (page: Page, t: Txn) => page.locator(`tr[data-transaction-id="${t.id}"]`);
const money = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

async function transaction(id: string): Promise<Txn> {
  const answer = await system.api('GET', `/transactions/v2/${id}`, { token });
  expect(answer.status).toBe(200);
  return answer.body as Txn;
}

async function openTransactions(page: Page, tab: string): Promise<void> {
  await logInThroughForm(page, email, PASSWORD);
  await waitForPath(page, '/dashboard');
  await page.goto(`/transactions?tab=${tab}`);
  await visible(page.getByRole('heading', { name: 'Transactions', level: 1 }));
}

/** Picks `option` in a category dropdown by typing part of it, as a person does. */
async function chooseCategory(page: Page, combobox: ReturnType<Page['getByRole']>, search: string, option: string): Promise<void> {
  await combobox.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('/transactions', () => {
  it(
    'lists the review tab 20 a page and fetches the next pages as the person scrolls',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        const pages: string[] = [];
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (url.pathname === '/transactions/v2') pages.push(url.searchParams.get('page') ?? '');
        });
        await openTransactions(page, 'review');
        await visible(page.getByText(new RegExp(`^Showing \\d+ of ${imported} transactions$`)));
        // Amounts are US dollars with 2 decimals.
        const first = outflows[0] as Txn;
        await visible(row(page, first).getByText(money(first.amount), { exact: true }));
        const shownBefore = await page.locator('tbody tr').count();
        expect(shownBefore % 20 === 0 || shownBefore === imported).toBe(true);
        expect(shownBefore).toBeLessThan(imported);
        expect(pages.every((p) => p !== '')).toBe(true);

        // Scrolling to the bottom again and again brings every page, then the end of the list.
        await expect
          .poll(
            async () => {
              await page.mouse.wheel(0, 5000);
              return page.locator('tbody tr').count();
            },
            { timeout: STEP_MS },
          )
          .toBe(imported);
        await visible(page.getByText('End of list'));
        await visible(page.getByText(`Showing ${imported} of ${imported} transactions`));
        expect(new Set(pages).size).toBe(Math.ceil(imported / 20));
      });
    },
    TEST_MS,
  );

  it(
    'categorises a transaction from the review tab; finalized, it leaves review and shows in All with its category',
    async () => {
      const t = outflows[0] as Txn;
      await inFreshPage(browser, system.webUrl, async (page) => {
        await openTransactions(page, 'review');
        const line = await visible(row(page, t));
        await chooseCategory(page, line.getByRole('combobox', { name: `Category of ${describeTxn(t)}` }), 'ren', 'Rent');
        await visible(notice(page, 'status', 'Transaction has been updated successfully.'));
        expect((await transaction(t.id)).category?.name).toBe('Rent');

        await line.getByRole('button', { name: `Finalize ${describeTxn(t)}`, exact: true }).click();
        await visible(notice(page, 'status', 'Transactions have been updated successfully.'));
        await line.waitFor({ state: 'detached' });

        await page.getByRole('tab', { name: 'All' }).click();
        const inAll = await visible(row(page, t));
        await visible(inAll.getByText('Rent', { exact: true }));
        await visible(inAll.getByText('Finalized', { exact: true }));
        // Finalized, it cannot be recategorised: the row says why instead of offering the dropdown.
        await visible(inAll.getByText('This transaction is finalized. Un-finalize it before editing'));
        expect(await inAll.getByRole('combobox').count()).toBe(0);
      });
    },
    TEST_MS,
  );

  it(
    "creates a category from the dropdown's 'Add: \"…\"' and books the transaction to it",
    async () => {
      const t = outflows[1] as Txn;
      const name = `Coworking ${Date.now().toString(36)}`;
      await inFreshPage(browser, system.webUrl, async (page) => {
        await openTransactions(page, 'review');
        const line = await visible(row(page, t));
        const combobox = line.getByRole('combobox', { name: `Category of ${describeTxn(t)}` });
        // A search is a case-insensitive contains match: no category holds the new name, so the add option is offered.
        await combobox.fill(name.toUpperCase());
        await page.getByRole('option', { name: `Add: "${name.toUpperCase()}"`, exact: true }).click();
        await visible(notice(page, 'status', 'Successfully added'));
        await visible(notice(page, 'status', 'Transaction has been updated successfully.'));
        await expect.poll(() => combobox.inputValue(), { timeout: STEP_MS }).toBe(name.toUpperCase());
      });
      const categories = (await system.api('GET', '/categories', { token })).body.categories as { id: string; name: string; level: number; type: string }[];
      const created = categories.find((c) => c.name === name.toUpperCase());
      expect(created).toMatchObject({ level: 3, type: 'Expenses' });
      expect((await transaction(t.id)).category?.id).toBe(created?.id);
    },
    TEST_MS,
  );

  it(
    'splits a transaction in the drawer: parts that do not add up are refused with the message, parts that do are booked',
    async () => {
      const t = outflows[2] as Txn;
      const total = Math.abs(t.amount);
      await inFreshPage(browser, system.webUrl, async (page) => {
        const splitCalls: string[] = [];
        page.on('request', (request) => {
          if (request.method() === 'POST' && new URL(request.url()).pathname === '/transactions/split') splitCalls.push(request.postData() ?? '');
        });
        await openTransactions(page, 'review');
        await (await visible(row(page, t))).getByRole('button', { name: `Details of ${describeTxn(t)}` }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('txn')).toBe(t.id);
        // The dialogs' own boxes are empty (their panels are fixed): wait on what they show.
        const drawer = page.getByRole('dialog', { name: describeTxn(t) });
        await visible(drawer.getByRole('heading', { name: describeTxn(t) }));
        await drawer.getByRole('button', { name: 'Split', exact: true }).click();

        const dialog = page.getByRole('dialog', { name: 'Split transaction' });
        await visible(dialog.getByRole('heading', { name: 'Split transaction' }));
        await field(page, 'Amount of part 1').fill((total - 1).toFixed(2));
        await visible(dialog.getByText('Remaining: $1.00'));
        await field(page, 'Amount of part 2').fill('2.00');
        await visible(dialog.getByText('Remaining: -$1.00'));
        await chooseCategory(page, dialog.getByRole('combobox', { name: 'Category of part 2' }), 'travel', 'Travel');
        await dialog.getByRole('button', { name: 'Save split' }).click();
        await visible(dialog.getByText('Split amounts must add up to the transaction amount', { exact: true }));
        expect(splitCalls).toEqual([]);

        await field(page, 'Amount of part 2').fill('1.00');
        await visible(dialog.getByText('Remaining: $0.00'));
        await dialog.getByRole('button', { name: 'Save split' }).click();
        await visible(notice(page, 'status', 'Transaction has been split successfully.'));
        await dialog.waitFor({ state: 'detached' });
        const parts = await visible(drawer.getByRole('region', { name: 'Split parts' }));
        await visible(parts.getByText('Travel', { exact: true }));
        await visible(parts.getByText('-$1.00', { exact: true }));

        // Editing the split: the existing part changes (update-split), the parts still add up.
        await drawer.getByRole('button', { name: 'Edit split', exact: true }).click();
        const edit = page.getByRole('dialog', { name: 'Edit split' });
        await visible(edit.getByRole('heading', { name: 'Edit split' }));
        expect(await field(page, 'Amount of part 2').inputValue()).toBe('1.00');
        await field(page, 'Amount of part 2').fill('3.00');
        await field(page, 'Amount of part 1').fill((total - 3).toFixed(2));
        await visible(edit.getByText('Remaining: $0.00'));
        await edit.getByRole('button', { name: 'Save split' }).click();
        await visible(notice(page, 'status', 'Transaction has been updated successfully.'));
        await edit.waitFor({ state: 'detached' });
        await visible(parts.getByText('-$3.00', { exact: true }));

        // Closed from its button, the drawer hands focus back to the row's Details button that opened it.
        await drawer.getByRole('button', { name: 'Close transaction details' }).click();
        await drawer.waitFor({ state: 'detached' });
        await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Details of ${describeTxn(t)}`);
      });
      expect(splitCallsBody(await transaction(t.id))).toEqual({ isSplittedParent: true, children: [{ amount: -3, categoryName: 'Travel' }] });
    },
    TEST_MS,
  );

  it(
    'finalizes a transaction: it leaves review and is listed under Finalized; un-finalized, it is back in review',
    async () => {
      const t = outflows[3] as Txn;
      await inFreshPage(browser, system.webUrl, async (page) => {
        await openTransactions(page, 'review');
        const line = await visible(row(page, t));
        await line.getByRole('button', { name: `Finalize ${describeTxn(t)}`, exact: true }).click();
        await visible(notice(page, 'status', 'Transactions have been updated successfully.'));
        await line.waitFor({ state: 'detached' });
        await page.getByRole('tab', { name: 'Finalized' }).click();
        await waitForPath(page, '/transactions');
        expect(new URL(page.url()).searchParams.get('tab')).toBe('finalized');
        const finalized = await visible(row(page, t));
        expect((await transaction(t.id)).isTransactionFinalized).toBe(true);

        // Un-finalized, it goes back to review.
        await finalized.getByRole('button', { name: `Un-finalize ${describeTxn(t)}`, exact: true }).click();
        await visible(notice(page, 'status', 'Transactions have been updated successfully.'));
        await finalized.waitFor({ state: 'detached' });
        await page.getByRole('tab', { name: 'Review' }).click();
        await visible(row(page, t));

        // A link with ?txn= opens the drawer of that transaction.
        await page.goto(`/transactions?tab=all&txn=${t.id}`);
        const drawer = page.getByRole('dialog', { name: describeTxn(t) });
        await visible(drawer.getByText('Not finalized', { exact: false }));
      });
      expect((await transaction(t.id)).isTransactionFinalized).toBe(false);
    },
    TEST_MS,
  );
});

describe('accruals', () => {
  it(
    'accrues a transaction over three months from the drawer, shows the schedule, moves an amount between months, and deletes the accrual',
    async () => {
      const t = outflows[4] as Txn;
      await inFreshPage(browser, system.webUrl, async (page) => {
        await openTransactions(page, 'review');
        await (await visible(row(page, t))).getByRole('button', { name: `Details of ${describeTxn(t)}` }).click();
        const drawer = page.getByRole('dialog', { name: describeTxn(t) });
        await visible(drawer.getByRole('heading', { name: describeTxn(t) }));
        await drawer.getByRole('button', { name: 'Accrue', exact: true }).click();

        const dialog = page.getByRole('dialog', { name: 'Accrue transaction' });
        await visible(dialog.getByRole('heading', { name: 'Accrue transaction' }));
        await dialog.getByLabel('Start date').fill('2026-01-01');
        await dialog.getByLabel('End date').fill('2025-12-01');
        await chooseCategory(page, dialog.getByRole('combobox', { name: 'Recognise into' }), 'software', 'Software and Subscriptions');
        await dialog.getByRole('button', { name: 'Accrue', exact: true }).click();
        await visible(dialog.getByText('End date cannot be less than Start date', { exact: true }));
        await dialog.getByLabel('End date').fill('2026-03-31');
        await dialog.getByRole('button', { name: 'Accrue', exact: true }).click();
        // Shown while the schedule dialog is open, which hides the rest of the page from the accessibility tree.
        await visible(page.locator('[data-notice-type="success"]').filter({ hasText: 'Transaction has been accrued successfully.' }));

        // The schedule the server booked: three months that add up to the transaction.
        const preview = page.getByRole('dialog', { name: 'Accrual schedule' });
        const months = preview.getByRole('table', { name: 'Accrual schedule' }).locator('tbody tr');
        await expect.poll(() => months.count(), { timeout: STEP_MS }).toBe(3);
        const amounts = await months.evaluateAll((rows) => rows.map((r) => Number((r.children[1]?.textContent ?? '').replace(/[$,]/g, ''))));
        expect(Math.round(amounts.reduce((a, b) => a + b, 0) * 100)).toBe(Math.round(Math.abs(t.amount) * 100));
        await preview.getByRole('button', { name: 'Done' }).click();

        const accrual = await visible(drawer.getByRole('region', { name: 'Accrual' }));
        // Month amounts can be moved between months; they must still add up to the transaction.
        await accrual.getByRole('button', { name: 'Edit accrual' }).click();
        const edit = page.getByRole('dialog', { name: 'Edit accrual' });
        await visible(edit.getByRole('heading', { name: 'Edit accrual' }));
        const cents = amounts.map((a) => Math.round(a * 100));
        const first = edit.getByRole('textbox', { name: 'Amount for 01/31/26' });
        const second = edit.getByRole('textbox', { name: 'Amount for 02/28/26' });
        await first.fill((((cents[0] ?? 0) + 25) / 100).toFixed(2));
        await visible(edit.getByText('Remaining: -$0.25'));
        await edit.getByRole('button', { name: 'Save accrual' }).click();
        await visible(edit.getByText('Accrual amounts must add up to the transaction amount', { exact: true }));
        await second.fill((((cents[1] ?? 0) - 25) / 100).toFixed(2));
        await visible(edit.getByText('Remaining: $0.00'));
        await edit.getByRole('button', { name: 'Save accrual' }).click();
        const updated = page.getByRole('dialog', { name: 'Accrual schedule' });
        await visible(updated.getByRole('cell', { name: money(((cents[0] ?? 0) + 25) / 100), exact: true }));
        await visible(page.locator('[data-notice-type="success"]').filter({ hasText: 'Transaction has been updated successfully.' }));
        await updated.getByRole('button', { name: 'Done' }).click();
        // Dismissed, so the delete's notice below is its own.
        await notice(page, 'status', 'Transaction has been updated successfully.').getByRole('button', { name: 'Dismiss notification' }).click();

        await visible(accrual.getByText('Prepaid Expenses', { exact: true }));
        await visible(accrual.getByText('Software and Subscriptions', { exact: true }));
        // Accrued, the transaction's category cannot be changed on its own.
        await visible(drawer.getByText('This transaction is accrued. Edit or stop its accrual instead'));

        await accrual.getByRole('button', { name: 'Delete accrual' }).click();
        const confirm = page.getByRole('dialog', { name: 'Delete the accrual?' });
        await confirm.getByRole('button', { name: 'Delete accrual' }).click();
        await visible(notice(page, 'status', 'Transaction has been updated successfully.'));
        await accrual.waitFor({ state: 'detached' });
        await visible(drawer.getByRole('button', { name: 'Accrue', exact: true }));

        // Escape closes the drawer and drops ?txn=.
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'detached' });
        expect(new URL(page.url()).searchParams.get('txn')).toBeNull();
      });
      const after = await transaction(t.id);
      expect(after).toMatchObject({ isAccruedParent: false, category: { name: t.category?.name } });
    },
    TEST_MS,
  );
});

describe('bulk actions', () => {
  it(
    'categorises the selected rows in one go',
    async () => {
      const review = (await system.api('GET', '/transactions/v2?finalization=nonFinalized&flow=outflow&take=100', { token })).body.data as Txn[];
      // The newest two still uncategorised: on the filtered list's first page.
      const picked = review.filter((t) => !t.isSplittedParent && t.category?.name === 'Uncategorised Expense').slice(0, 2);
      expect(picked).toHaveLength(2);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await openTransactions(page, 'review');
        await page.getByRole('button', { name: /^Flow/ }).click();
        await page.getByRole('option', { name: 'Outflow', exact: true }).click();
        for (const t of picked) await (await visible(row(page, t))).getByRole('checkbox').check();
        const bulk = await visible(page.getByRole('region', { name: 'Bulk actions' }));
        await visible(bulk.getByText('2 selected', { exact: true }));
        await chooseCategory(page, bulk.getByRole('combobox', { name: 'Category for selected' }), 'office', 'Office Supplies');
        await bulk.getByRole('button', { name: 'Categorise selected' }).click();
        await visible(notice(page, 'status', 'Transactions have been updated successfully.'));
        await bulk.waitFor({ state: 'detached' });
        for (const t of picked) await expect.poll(async () => row(page, t).getByRole('combobox').inputValue(), { timeout: STEP_MS }).toBe('Office Supplies');
      });
      for (const t of picked) expect((await transaction(t.id)).category?.name).toBe('Office Supplies');
    },
    TEST_MS,
  );
});

describe('loading, error and empty states', () => {
  it(
    'says when the list could not be loaded and loads it on Try again; a workspace without transactions says there is nothing to review',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        // The gateway answering 503 once: the list says so instead of showing nothing.
        const isList = (url: URL) => url.pathname === '/transactions/v2';
        await page.route(isList, (route) =>
          route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'Service temporarily unavailable', statusCode: 503 }),
          }),
        );
        await openTransactions(page, 'review');
        await visible(page.getByRole('heading', { name: 'Transactions could not be loaded' }));
        await visible(page.getByText('Service temporarily unavailable', { exact: true }));
        await page.unroute(isList);
        await page.getByRole('button', { name: 'Try again' }).click();
        await visible(page.getByText(/^Showing \d+ of \d+ transactions$/));
      });

      const other = await signedUpUser(system);
      const onboarded = await system.api('POST', '/onboard-user', { token: other.token, body: onboardBody });
      expect(onboarded.status).toBe(200);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await logInThroughForm(page, other.email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await page.goto('/transactions?tab=review');
        await visible(page.getByRole('heading', { name: 'Nothing to review' }));
        await page.getByRole('tab', { name: 'All' }).click();
        await visible(page.getByRole('heading', { name: 'No transactions' }));
      });
    },
    TEST_MS,
  );
});

describe('filters', () => {
  // Typing a description right after 'Clear filters' once brought the cleared Flow filter back (a change based on the
  // URL a render showed while the clearing navigation was pending); the last step catches it.
  it(
    'narrows the All tab by flow and by description, each answered by the ledger',
    async () => {
      const count = async (query: string) => (await system.api('GET', `/transactions/v2?take=1&${query}`, { token })).body.meta.itemCount as number;
      const inflows = await count('flow=inflow');
      const sample = outflows[0] as Txn;
      const word = describeTxn(sample);
      const matching = await count(`flow=inflow&description=${encodeURIComponent(word)}`);
      const matchingAnyFlow = await count(`description=${encodeURIComponent(word)}`);
      expect(inflows).toBeGreaterThan(0);
      expect(inflows).toBeLessThan(imported);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await openTransactions(page, 'all');
        await visible(page.getByText(`of ${imported} transactions`, { exact: false }));
        await page.getByRole('button', { name: /^Flow/ }).click();
        await page.getByRole('option', { name: 'Inflow', exact: true }).click();
        await visible(page.getByText(new RegExp(`^Showing \\d+ of ${inflows} transactions?$`)));
        await visible(page.getByText('1 filter applied'));
        for (const amount of await page.locator('tbody tr td:nth-child(6)').allTextContents()) expect(amount.startsWith('-'), amount).toBe(false);

        await page.getByRole('searchbox', { name: 'Description' }).fill(word);
        if (matching === 0) await visible(page.getByText('No transactions match these filters', { exact: true }));
        else await visible(page.getByText(new RegExp(`^Showing \\d+ of ${matching} transactions?$`)));
        // Every list asked for after 'Clear filters' is without the cleared flow.
        const flowsAsked: (string | null)[] = [];
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (url.pathname === '/transactions/v2') flowsAsked.push(url.searchParams.get('flow'));
        });
        await page.getByRole('button', { name: 'Clear filters' }).click();
        await visible(page.getByText(`of ${imported} transactions`, { exact: false }));
        await page.getByRole('searchbox', { name: 'Description' }).fill(word);
        await visible(page.getByText(new RegExp(`^Showing \\d+ of ${matchingAnyFlow} transactions?$`)));
        await visible(row(page, sample));
        expect(new URL(page.url()).searchParams.get('flow')).toBeNull();
        expect(flowsAsked.filter((flow) => flow !== null)).toEqual([]);
      });
    },
    TEST_MS,
  );
});

describe("each tab's default filter set", () => {
  it(
    'shows the last filters of a tab on a bare URL; a URL with filters wins; Clear filters clears the stored set',
    async () => {
      const count = async (query: string) => (await system.api('GET', `/transactions/v2?take=1&${query}`, { token })).body.meta.itemCount as number;
      const [inflows, outflowCount] = await Promise.all([count('flow=inflow'), count('flow=outflow')]);
      await inFreshPage(browser, system.webUrl, async (page) => {
        const flowOf = () => new URL(page.url()).searchParams.get('flow');
        const lists: (string | null)[] = [];
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (url.pathname === '/transactions/v2') lists.push(url.searchParams.get('flow'));
        });
        await openTransactions(page, 'all');
        await visible(page.getByText(`of ${imported} transactions`, { exact: false }));
        await page.getByRole('button', { name: /^Flow/ }).click();
        await page.getByRole('option', { name: 'Inflow', exact: true }).click();
        await visible(page.getByText(new RegExp(`^Showing \\d+ of ${inflows} transactions?$`)));

        // A bare URL (the navigation's link, a new visit) shows the tab's last filters, and writes them into the URL.
        lists.length = 0;
        await page.goto('/transactions?tab=all');
        await visible(page.getByText(new RegExp(`^Showing \\d+ of ${inflows} transactions?$`)));
        await visible(page.getByText('1 filter applied'));
        await page.waitForURL((url) => url.searchParams.get('flow') === 'inflow');
        // The list is not asked once without them first.
        expect(lists.length).toBeGreaterThan(0);
        expect(
          lists.every((flow) => flow === 'inflow'),
          lists.join(),
        ).toBe(true);

        // Another tab has its own set (none yet).
        await page.getByRole('tab', { name: 'Review' }).click();
        await visible(page.getByText(/^Showing \d+ of \d+ transactions$/));
        expect(flowOf()).toBeNull();
        expect(await page.getByText(/filters? applied$/).count()).toBe(0);

        // A link that names filters wins (and leaves the stored set as it was).
        await page.goto('/transactions?tab=all&flow=outflow');
        await visible(page.getByText(new RegExp(`^Showing \\d+ of ${outflowCount} transactions?$`)));
        await page.goto('/transactions?tab=all');
        await visible(page.getByText(new RegExp(`^Showing \\d+ of ${inflows} transactions?$`)));

        // Clear filters clears the stored set: the bare URL then shows every transaction.
        await page.getByRole('button', { name: 'Clear filters' }).click();
        await visible(page.getByText(`of ${imported} transactions`, { exact: false }));
        await page.goto('/transactions?tab=all');
        await visible(page.getByText(`of ${imported} transactions`, { exact: false }));
        expect(flowOf()).toBeNull();
        expect(await page.getByText(/filters? applied$/).count()).toBe(0);
      });
    },
    TEST_MS,
  );
});

describe('the list at a desktop and a phone width', () => {
  it(
    'gives the account a readable column with an ellipsis and its title at 1440 px; keeps the count on one line at 390 px',
    async () => {
      await mkdir(SCREENSHOTS, { recursive: true });
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await openTransactions(page, 'all');
        await visible(page.getByText(new RegExp(`^Showing \\d+ of ${imported} transactions$`)));
        const header = page.getByRole('columnheader', { name: 'Account' });
        expect((await header.boundingBox())!.width, 'the Account column at 1440 px').toBeGreaterThanOrEqual(200);
        const account = page.locator('tbody tr').first().getByRole('cell').nth(3).locator('span');
        const shown = await account.evaluate((e) => ({
          text: e.textContent,
          title: e.getAttribute('title'),
          overflow: getComputedStyle(e).textOverflow,
          nowrap: getComputedStyle(e).whiteSpace,
          inside: e.scrollWidth <= (e.parentElement?.clientWidth ?? 0) || getComputedStyle(e).overflow === 'hidden',
        }));
        expect(shown.title).toBe(shown.text);
        expect([shown.overflow, shown.nowrap, shown.inside]).toEqual(['ellipsis', 'nowrap', true]);
        // The column's cells do not run into the description or the category beside it.
        const cells = await page
          .locator('tbody tr')
          .first()
          .getByRole('cell')
          .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
        for (let i = 1; i < cells.length; i++) expect(cells[i]!.left, `cell ${i + 1} starts after cell ${i}`).toBeGreaterThanOrEqual(cells[i - 1]!.right - 0.5);
        await page.screenshot({ path: new URL('transactions-account-column-desktop.png', SCREENSHOTS).pathname });
        // At 1280 px (a laptop) the description keeps a readable column too: the account and category give way first.
        await page.setViewportSize({ width: 1280, height: 800 });
        const width = async (name: string) => (await page.getByRole('columnheader', { name }).boundingBox())!.width;
        expect(await width('Description'), 'the Description column at 1280 px').toBeGreaterThanOrEqual(150);
        expect(await width('Account'), 'the Account column at 1280 px').toBeGreaterThanOrEqual(140);
        await page.screenshot({ path: new URL('transactions-columns-1280.png', SCREENSHOTS).pathname });

        await page.setViewportSize({ width: 390, height: 844 });
        const count = page.locator('p[aria-live="polite"]').filter({ hasText: `of ${imported}` });
        await visible(count);
        const line = await count.evaluate((e) => ({
          height: e.getBoundingClientRect().height,
          lineHeight: parseFloat(getComputedStyle(e).lineHeight),
          right: e.getBoundingClientRect().right,
        }));
        expect(line.height, 'the count is one line at 390 px').toBeLessThanOrEqual(line.lineHeight * 1.5);
        expect(line.right).toBeLessThanOrEqual(390);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await page.screenshot({ path: new URL('transactions-count-phone.png', SCREENSHOTS).pathname });
      });
    },
    TEST_MS,
  );
});

// Last in the file: it makes the file's user a Viewer.
describe('a Viewer', () => {
  it(
    "sees every editing control disabled with 'Editing actions are disabled for your account', and can still read",
    async () => {
      // No public route assigns roles yet (invites belong to another issue), so the membership is changed in
      // identity's database, as an Owner changing a member's role would.
      const me = await system.api('GET', '/users/me', { token });
      await system.db.adminDb('memberships').where({ user_id: me.body.id }).update({ role: 'Viewer' });
      const t = outflows[5] as Txn;
      await inFreshPage(browser, system.webUrl, async (page) => {
        await openTransactions(page, 'all');
        await visible(page.getByRole('note').getByText('Editing actions are disabled for your account', { exact: true }));
        const line = await visible(row(page, t));
        expect(await line.getByRole('button', { name: /^(Finalize|Un-finalize) / }).isDisabled()).toBe(true);
        await line.getByRole('checkbox').check();
        const bulk = await visible(page.getByRole('region', { name: 'Bulk actions' }));
        expect(await bulk.getByRole('button', { name: /selected$/ }).evaluateAll((buttons) => buttons.map((b) => (b as HTMLButtonElement).disabled))).toEqual([
          true,
          true,
        ]);

        await line.getByRole('button', { name: `Details of ${describeTxn(t)}` }).click();
        const drawer = page.getByRole('dialog', { name: describeTxn(t) });
        await visible(drawer.getByRole('heading', { name: describeTxn(t) }));
        await visible(drawer.getByText('Editing actions are disabled for your account', { exact: true }));
        for (const name of ['Split', 'Finalize']) expect(await drawer.getByRole('button', { name, exact: true }).isDisabled(), name).toBe(true);
        expect(await drawer.getByRole('combobox', { name: 'Category' }).isDisabled()).toBe(true);
        // Reading still works: the history is there.
        await visible(drawer.getByRole('region', { name: 'History' }).getByText('Imported from the bank'));
      });
    },
    TEST_MS,
  );
});

function splitCallsBody(t: Txn) {
  return { isSplittedParent: t.isSplittedParent, children: t.splittedChildren.map((c) => ({ amount: c.amount, categoryName: c.categoryName })) };
}
