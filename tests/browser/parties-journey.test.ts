// The parties journey (issue #17 "Must show": Playwright) in real Chromium against the real stack (gateway, identity,
// banking with the Plaid sandbox, ledger, reporting, parties): a vendor rule made from a transaction's drawer and
// applied to the payee's past transactions; two vendors merged; a vendor credit recorded, viewed and edited in
// /expenses?tab=vendor-credit; a credit memo in /revenue?tab=credit-memo (refused empty, then recorded and deleted);
// the spendings tab's drill-down to the transactions behind an amount. Layout: dialogs and tables inside the window,
// no sideways scroll at 390 px. Screenshots in test-results/screenshots/parties-journey-*.png.
import { mkdirSync } from 'node:fs';
import { expectEventually } from '@ledgerline/platform/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boxOf,
  dialogNamed,
  expectInsideWindow,
  expectNoHorizontalScroll,
  field,
  inFreshPage,
  launchBrowser,
  notice,
  startPartiesWebSession,
  STEP_MS,
  TEST_MS,
  visible,
  waitForPath,
  type PartiesWebSession,
} from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let session: PartiesWebSession;
let system: PartiesWebSession['system'];
let browser: Browser;

interface Txn {
  id: string;
  amount: number;
  dateTime: string;
  biller: { id: string; name: string } | null;
  category: { id: string; name: string } | null;
  vendorId: string | null;
  appliedRuleId: string | null;
  isTransactionFinalized: boolean;
}

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: STEP_MS });
const api = (method: string, path: string, body?: unknown) => session.api(method, path, body);
const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`parties-journey-${name}.png`, SCREENSHOTS).pathname, fullPage: true });

async function created<T>(path: string, body: unknown, key: string): Promise<T> {
  const r = await api('POST', path, body);
  if (r.status !== 201) throw new Error(`POST ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body[key] as T;
}

async function transactions(): Promise<Txn[]> {
  return (await api('GET', '/transactions/v2?take=100')).body.data as Txn[];
}

async function categoryId(name: string): Promise<string> {
  const c = ((await api('GET', '/categories')).body.categories as { id: string; name: string }[]).find((x) => x.name === name);
  if (!c) throw new Error(`no category ${name}`);
  return c.id;
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [session, browser] = await Promise.all([startPartiesWebSession({ transactions: 40, reporting: true }), launchBrowser()]);
  system = session.system;
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

/** Chooses `option` in a combobox of the ui kit: typing searches, the option is clicked in the portaled list. */
async function choose(page: Page, combobox: Locator, option: string): Promise<void> {
  await combobox.click();
  await page.keyboard.type(option.slice(0, 12));
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await poll(() => combobox.inputValue()).toBe(option);
}

const signIn = (page: Page, viewport = DESKTOP) => session.signIn(page, viewport);

describe('the parties journey', () => {
  it(
    'creates a vendor rule from a transaction in its drawer and sees it applied to the payee’s past transactions',
    async () => {
      // The payee with the most transactions the rule may change, and a category none of them has yet.
      const all = await transactions();
      const byPayee = new Map<string, Txn[]>();
      for (const t of all) {
        if (!t.biller || t.isTransactionFinalized || /transfer/i.test(t.category?.name ?? '')) continue;
        byPayee.set(t.biller.name, [...(byPayee.get(t.biller.name) ?? []), t]);
      }
      const [payee, payeeTxns] = [...byPayee.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
      expect(payeeTxns.length, 'the sandbox gave no payee two transactions').toBeGreaterThanOrEqual(2);
      const target = ['Meals and Entertainment', 'Rent', 'Travel'].find((name) => payeeTxns.every((t) => t.category?.name !== name))!;
      const targetId = await categoryId(target);
      // Made from the newest of them, the rule reaches back to the oldest: its apply-from date is set to that one's.
      const byDate = [...payeeTxns].sort((a, b) => b.dateTime.localeCompare(a.dateTime));
      const newest = byDate[0]!;
      const oldestDate = byDate.at(-1)!.dateTime.slice(0, 10);

      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);
        await page.goto(`/transactions?tab=all&txn=${newest.id}`);
        const drawer = page.getByRole('dialog', { name: payee });
        await visible(drawer.getByRole('heading', { name: payee }));
        await drawer.getByRole('button', { name: 'Create rule' }).click();
        const editor = await visible(dialogNamed(page, 'New rule'));
        // Filled from the transaction: named after the payee, its bank name to contain.
        expect(await field(page, 'Rule name').inputValue()).toBe(`${payee} rule`);
        expect(await editor.getByRole('textbox', { name: 'Description text' }).inputValue()).toBe(payee);
        const vendorBox = editor.getByRole('combobox', { name: 'Vendor' });
        if ((await vendorBox.inputValue()) === '') await choose(page, vendorBox, payee);
        await choose(page, editor.getByRole('combobox', { name: 'Category' }), target);
        // Prefilled a year before the transaction; moved back to the payee's first transaction.
        const applyFrom = editor.locator('input[name="ruleApplyDateTime"]');
        expect(await applyFrom.inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        await applyFrom.fill(oldestDate);
        await expectInsideWindow(page, editor, 'the rule editor over the drawer');
        await shot(page, 'rule-from-drawer');
        await editor.getByRole('button', { name: 'Save rule' }).click();
        await visible(notice(page, 'status', 'Vendor rule created'));
        await editor.waitFor({ state: 'detached' });

        // Applied to the past transactions: each of the payee's now has the category and the rule's mark.
        const rule = ((await api('GET', '/vendors/rule-engines')).body.data as { id: string; name: string }[]).find((r) => r.name === `${payee} rule`);
        expect(rule).toBeDefined();
        await expectEventually(
          async () => {
            const now = (await transactions()).filter((t) => payeeTxns.some((p) => p.id === t.id));
            const off = now.filter((t) => t.category?.id !== targetId || t.appliedRuleId !== rule!.id);
            if (off.length > 0)
              throw new Error(
                `${off.length} of ${now.length} transactions of ${payee} not categorised by the rule from ${oldestDate}: ${JSON.stringify(off.map((t) => [t.dateTime, t.category?.name, t.appliedRuleId]))}`,
              );
          },
          { timeoutMs: STEP_MS, intervalMs: 250 },
        );
        // The drawer says which rule categorised it; the list shows the new category on every one of them.
        await visible(drawer.getByRole('link', { name: 'Categorised by a rule' }));
        await poll(() => drawer.getByRole('combobox', { name: 'Category' }).inputValue()).toBe(target);
        await page.keyboard.press('Escape');
        await page.goto(`/transactions?tab=all&billers=${newest.biller!.id}`);
        const table = page.getByRole('table').first();
        const pickers = table.getByRole('combobox', { name: `Category of ${payee}`, exact: false });
        await poll(() => pickers.count()).toBe(payeeTxns.length);
        await poll(async () => [...new Set(await pickers.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)))]).toEqual([target]);

        // The rules tab lists it with the transactions it was applied to.
        await page.goto('/transactions?tab=rules');
        const rules = await visible(page.getByRole('table', { name: 'Vendor rules' }));
        const row = rules.getByRole('row').filter({ hasText: `${payee} rule` });
        await poll(() => row.getByRole('cell').last().textContent()).toBe(String(payeeTxns.length));
        await expectInsideWindow(page, rules, 'the rules table', { vertically: false });
        await shot(page, 'rules-1440');
      });
    },
    TEST_MS,
  );

  it(
    'merges two vendors',
    async () => {
      const parent = await created<{ id: string; name: string }>('/vendors', { name: 'Journey Roasters' }, 'vendor');
      const child = await created<{ id: string; name: string }>('/vendors', { name: 'Journey Roasters Inc' }, 'vendor');
      const linked = (await transactions()).slice(0, 2);
      expect((await api('PATCH', '/transactions', { transactions: linked.map((t) => ({ id: t.id, vendorId: child.id })) })).status).toBe(200);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);
        await page.goto('/transactions?tab=vendors&search=Journey%20Roasters');
        const table = await visible(page.getByRole('table', { name: 'Vendors' }));
        const names = table.locator('tbody tr td:first-child button');
        await poll(async () => (await names.allTextContents()).sort()).toEqual([parent.name, child.name]);
        await page.getByRole('button', { name: 'Merge vendors' }).click();
        const dialog = await visible(dialogNamed(page, 'Merge vendors'));
        await dialog.getByRole('button', { name: /Vendor to keep/ }).click();
        await page.getByRole('option', { name: parent.name, exact: true }).click();
        await dialog.getByRole('checkbox', { name: child.name, exact: true }).check();
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await visible(dialog.getByText(`Merge ${child.name} into ${parent.name}?`, { exact: false }));
        await expectInsideWindow(page, dialog, 'the merge confirmation');
        await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
        await visible(notice(page, 'status', `Vendors merged: 2 transactions moved to ${parent.name}`));
        await poll(() => names.allTextContents()).toEqual([parent.name]);
      });
      expect((await api('GET', `/vendors/${child.id}`)).status).toBe(404);
      expect((await api('GET', `/vendors/${parent.id}`)).body.transactionCount).toBe(2);
    },
    TEST_MS,
  );

  it(
    'records a vendor credit in /expenses?tab=vendor-credit, sees it in the list, views and edits it',
    async () => {
      const vendorName = 'Journey Roasters';
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);
        // The sidebar's Expenses entry opens the area; its Vendor Credit tab the list.
        await page.getByRole('link', { name: 'Expenses', exact: true }).first().click();
        await waitForPath(page, '/expenses');
        await visible(page.getByRole('heading', { name: 'Expenses', level: 1 }));
        await page.getByRole('tab', { name: 'Vendor Credit' }).click();
        await poll(() => new URL(page.url()).searchParams.get('tab')).toBe('vendor-credit');
        await visible(page.getByText('No vendor credits', { exact: true }));

        await page.getByRole('button', { name: 'New vendor credit' }).click();
        await poll(() => new URL(page.url()).searchParams.get('mode')).toBe('create');
        const editor = await visible(dialogNamed(page, 'New vendor credit'));
        // Refused empty, each problem on its field.
        await editor.getByRole('button', { name: 'Save vendor credit' }).click();
        await visible(editor.getByText('Vendor is required'));
        await visible(editor.getByText('At least one line item is required'));

        await choose(page, editor.getByRole('combobox', { name: 'Vendor' }), vendorName);
        await editor.getByRole('textbox', { name: 'Description', exact: true }).fill('Refund for a damaged grinder');
        await editor.getByRole('textbox', { name: 'Line 1 description' }).fill('Grinder');
        await choose(page, editor.getByRole('combobox', { name: 'Line 1 category' }), 'Meals and Entertainment');
        await editor.getByRole('textbox', { name: 'Line 1 amount' }).fill('120.50');
        await editor.getByRole('button', { name: 'Add line' }).click();
        await editor.getByRole('textbox', { name: 'Line 2 description' }).fill('Beans');
        await choose(page, editor.getByRole('combobox', { name: 'Line 2 category' }), 'Meals and Entertainment');
        await editor.getByRole('textbox', { name: 'Line 2 amount' }).fill('30');
        const totals = editor.getByRole('definition').first();
        await poll(() => totals.textContent()).toBe('$150.50');
        await expectInsideWindow(page, editor, 'the vendor credit editor');
        await shot(page, 'vendor-credit-editor-1440');
        await editor.getByRole('button', { name: 'Save vendor credit' }).click();
        await visible(notice(page, 'status', 'Vendor credit created'));

        // Saved: it opens (?vendorCredit=<id>) with its totals, applied amount and running balance.
        await poll(() => new URL(page.url()).searchParams.get('vendorCredit')).toMatch(/^[0-9a-f-]{36}$/);
        const id = new URL(page.url()).searchParams.get('vendorCredit')!;
        const view = await visible(dialogNamed(page, `Vendor credit: ${vendorName}`));
        const shown = view.getByRole('definition');
        await poll(async () => (await shown.allTextContents()).slice(-3)).toEqual(['$150.50', '$0.00', '$150.50']);
        await visible(view.getByRole('table', { name: 'Line items' }).getByRole('cell', { name: 'Grinder' }));
        await expectInsideWindow(page, view, 'the vendor credit');
        await view.getByRole('button', { name: 'Close' }).click();
        await poll(() => new URL(page.url()).searchParams.get('vendorCredit')).toBe(null);

        // In the list.
        const table = await visible(page.getByRole('table', { name: 'Vendor credits' }));
        const row = table.getByRole('row').filter({ hasText: vendorName });
        await poll(() => row.count()).toBe(1);
        await visible(row.getByRole('cell', { name: '$150.50' }).first());
        await expectInsideWindow(page, table, 'the vendor credits table', { vertically: false });
        await expectNoHorizontalScroll(page, 'vendor credits at 1440');
        await shot(page, 'vendor-credits-1440');

        // A link opens it; Edit changes a line; the list follows.
        await page.goto(`/expenses?tab=vendor-credit&vendorCredit=${id}`);
        const again = await visible(dialogNamed(page, `Vendor credit: ${vendorName}`));
        await again.getByRole('button', { name: 'Edit' }).click();
        await poll(() => new URL(page.url()).searchParams.get('mode')).toBe('edit');
        const edit = await visible(dialogNamed(page, 'Edit vendor credit'));
        await edit.getByRole('textbox', { name: 'Line 2 amount' }).fill('40');
        await edit.getByRole('button', { name: 'Save vendor credit' }).click();
        await visible(notice(page, 'status', 'Vendor credit updated'));
        const edited = await visible(dialogNamed(page, `Vendor credit: ${vendorName}`));
        await poll(async () => (await edited.getByRole('definition').allTextContents()).slice(-3)).toEqual(['$160.50', '$0.00', '$160.50']);
        expect((await api('GET', `/vendors/vendor-credit/${id}`)).body).toMatchObject({
          totalAmount: 160.5,
          appliedAmount: 0,
          runningBalance: 160.5,
          description: 'Refund for a damaged grinder',
        });
      });
      const vendors = (await api('GET', '/vendors?search=Journey%20Roasters')).body.data as {
        name: string;
        vendorCreditCount: number;
        vendorCreditTotal: number;
      }[];
      expect(vendors.find((v) => v.name === vendorName)).toMatchObject({ vendorCreditCount: 1, vendorCreditTotal: 160.5 });
    },
    TEST_MS,
  );

  it(
    'records a credit memo in /revenue?tab=credit-memo, then deletes it',
    async () => {
      const customer = await created<{ id: string; name: string }>('/customers', { name: 'Journey Customer' }, 'customer');
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);
        await page.goto('/revenue?tab=credit-memo');
        await waitForPath(page, '/revenue');
        await page.getByRole('button', { name: 'New credit memo' }).click();
        const editor = await visible(dialogNamed(page, 'New credit memo'));
        await editor.getByRole('button', { name: 'Save credit memo' }).click();
        await visible(editor.getByText('Customer is required'));
        await choose(page, editor.getByRole('combobox', { name: 'Customer' }), customer.name);
        await editor.getByRole('textbox', { name: 'Ref no' }).fill('CM-1001');
        await choose(page, editor.getByRole('combobox', { name: 'Line 1 category' }), 'Sales');
        await editor.getByRole('textbox', { name: 'Line 1 amount' }).fill('75');
        await editor.getByRole('button', { name: 'Save credit memo' }).click();
        await visible(notice(page, 'status', 'Credit memo created'));
        const view = await visible(dialogNamed(page, `Credit memo: ${customer.name}`));
        await visible(view.getByText('CM-1001', { exact: true }));
        await view.getByRole('button', { name: 'Close' }).click();

        const table = await visible(page.getByRole('table', { name: 'Credit memos' }));
        const row = table.getByRole('row').filter({ hasText: customer.name });
        await visible(row.getByRole('cell', { name: 'CM-1001' }));
        await expectNoHorizontalScroll(page, 'credit memos at 1440');
        await shot(page, 'credit-memos-1440');
        expect(((await api('GET', `/customers/${customer.id}`)).body as { creditMemoCount: number }).creditMemoCount).toBe(1);

        await row.getByRole('button').first().click();
        const open = await visible(dialogNamed(page, `Credit memo: ${customer.name}`));
        await open.getByRole('button', { name: 'Delete', exact: true }).click();
        await open.getByRole('button', { name: 'Delete credit memo' }).click();
        await visible(notice(page, 'status', 'Credit memo deleted'));
        await visible(page.getByText('No credit memos', { exact: true }));
      });
      expect(((await api('GET', '/customers/credit-memos')).body as { meta: { itemCount: number } }).meta.itemCount).toBe(0);
    },
    TEST_MS,
  );

  it(
    'shows spending by category and merchant for a period, each amount leading to its transactions',
    async () => {
      const dates = (await transactions()).map((t) => t.dateTime.slice(0, 10)).sort();
      const [startDate, endDate] = [dates[0]!, dates.at(-1)!];
      const spending = (await api('GET', `/financial-data/spending?startDate=${startDate}&endDate=${endDate}`)).body as {
        data: { id: string | null; name: string; amount: number }[];
      };
      const top = spending.data.find((r) => r.id !== null);
      expect(top, 'nothing was spent in the sandbox’s period').toBeDefined();
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);
        await page.goto(`/expenses?tab=spendings&startDate=${startDate}&endDate=${endDate}`);
        const byCategory = await visible(page.getByRole('table', { name: 'Spending by category' }));
        await visible(page.getByRole('table', { name: 'Spending by merchant' }));
        await expectInsideWindow(page, byCategory, 'the spending table', { vertically: false });
        await expectNoHorizontalScroll(page, 'spendings at 1440');
        await shot(page, 'spendings-1440');
        const link = byCategory.getByRole('link', { name: new RegExp(`spent on ${top!.name}: show the transactions`) });
        await link.click();
        await waitForPath(page, '/transactions');
        const url = new URL(page.url());
        expect(Object.fromEntries(url.searchParams)).toMatchObject({ tab: 'all', startDate, endDate, categories: top!.id });
        // Every row listed is booked to that category (the pickers show its name once the categories are loaded).
        const pickers = page.getByRole('table', { name: 'Transactions' }).getByRole('combobox', { name: /^Category of / });
        await poll(() => pickers.count()).toBeGreaterThan(0);
        await poll(async () => [...new Set(await pickers.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)))]).toEqual([top!.name]);
        await shot(page, 'spendings-drill-down');
      });
    },
    TEST_MS,
  );

  it(
    'at 390×844: the expenses and credit screens never scroll sideways and their dialogs fill the screen',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page, PHONE);
        await page.goto('/expenses?tab=vendor-credit');
        const table = await visible(page.getByRole('table', { name: 'Vendor credits' }));
        await expectInsideWindow(page, table, 'the vendor credits table at 390', { vertically: false });
        expect(await table.getByRole('columnheader', { name: 'Applied' }).isVisible()).toBe(false);
        await expectNoHorizontalScroll(page, 'vendor credits at 390');
        await shot(page, 'vendor-credits-390');
        await page.getByRole('button', { name: 'New vendor credit' }).click();
        const editor = await visible(dialogNamed(page, 'New vendor credit'));
        const box = await boxOf(editor, 'the vendor credit sheet');
        expect(Math.round(box.width)).toBe(PHONE.width);
        await expectInsideWindow(page, editor, 'the vendor credit sheet');
        await expectNoHorizontalScroll(page, 'the vendor credit sheet at 390');
        await shot(page, 'vendor-credit-editor-390');
        await page.keyboard.press('Escape');
        await poll(() => new URL(page.url()).searchParams.get('mode')).toBe(null);

        const dates = (await transactions()).map((t) => t.dateTime.slice(0, 10)).sort();
        await page.goto(`/expenses?tab=spendings&startDate=${dates[0]}&endDate=${dates.at(-1)}`);
        for (const name of ['Spending by category', 'Spending by merchant'])
          await expectInsideWindow(page, await visible(page.getByRole('table', { name })), `the table ${name} at 390`, { vertically: false });
        // The transaction counts fold away; the merchant, amount and share stay.
        expect(await page.getByRole('table', { name: 'Spending by merchant' }).getByRole('columnheader', { name: 'Transactions' }).isVisible()).toBe(false);
        await expectNoHorizontalScroll(page, 'spendings at 390');
        await shot(page, 'spendings-390');
        await page.goto('/revenue?tab=credit-memo');
        await visible(page.getByRole('button', { name: 'New credit memo' }));
        await expectNoHorizontalScroll(page, 'credit memos at 390');
      });
    },
    TEST_MS,
  );
});
