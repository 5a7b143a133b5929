// The documents journey (issue #18 item 7 and "Must show": Playwright) in real Chromium against the real stack
// (gateway, identity, banking with the Plaid sandbox, ledger, reporting, parties, documents): a bill with two lines
// paid by connecting a bank transaction — PAID, and the transaction locked in its drawer with the reason and a link
// back; an invoice priced by quantity × rate, viewed, voided and found under the Voided filter; a manual journal
// refused while unbalanced, then posted. Layout: dialogs inside the window with Save/Cancel pinned in view, tables
// inside the page, no sideways scroll at 390 px. Screenshots in test-results/screenshots/documents-journey-*.png.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, startSystem, type System } from '../support/system.js';
import { boxOf, importBankTransactions, inFreshPage, launchBrowser, logInThroughForm, notice, STEP_MS, TEST_MS, visible, waitForPath } from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

type Sys = System & { webUrl: string; plaid: NonNullable<System['plaid']> };
let system: Sys;
let browser: Browser;
let email: string;
let token: string;
let workspace: string;

interface Txn {
  id: string;
  amount: number;
  dateTime: string;
  memo: string;
  biller: { id: string; name: string } | null;
  category: { id: string; name: string; type?: string } | null;
  isTransactionFinalized: boolean;
  entityType: string | null;
  entityId: string | null;
}

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: STEP_MS });
const api = (method: string, path: string, body?: unknown) => system.api(method, path, { token, workspace, body });
const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`documents-journey-${name}.png`, SCREENSHOTS).pathname, fullPage: true });
const money = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

async function created<T>(path: string, body: unknown, key: string): Promise<T> {
  const r = await api('POST', path, body);
  if (r.status !== 201) throw new Error(`POST ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body[key] as T;
}

async function transactions(): Promise<Txn[]> {
  return (await api('GET', '/transactions/v2?take=100')).body.data as Txn[];
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const [started, launched] = await Promise.all([
    startSystem({
      web: true,
      banking: true,
      ledger: true,
      reporting: true,
      parties: true,
      documents: true,
      gatewayEnv: {
        RATE_LIMIT_GLOBAL_MAX: '100000',
        RATE_LIMIT_LOGIN_MAX: '1000',
        RATE_LIMIT_CODE_MAX: '1000',
        IDENTITY_TIMEOUT_MS: '15000',
        SERVICE_TIMEOUT_MS: '15000',
      },
    }),
    launchBrowser(),
  ]);
  browser = launched;
  if (started.webUrl === null || started.plaid === null) throw new Error('startSystem served no web app or no Plaid sandbox');
  system = { ...started, webUrl: started.webUrl, plaid: started.plaid };
  const user = await signedUpUser(system);
  email = user.email;
  token = user.token;
  workspace = user.user.workspace.id;
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  await importBankTransactions(system, token, 40);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

/** An open dialog's panel (the dialog element itself is a zero-size wrapper of fixed layers). */
const dialogNamed = (page: Page, name: string | RegExp): Locator =>
  page.getByRole('dialog', { name, exact: typeof name === 'string' }).locator('[data-dialog-panel]');

/** Chooses `option` in a combobox of the ui kit: typing searches, the option is clicked in the portaled list. */
async function choose(page: Page, combobox: Locator, option: string, typed = option.slice(0, 12)): Promise<void> {
  await combobox.click();
  await page.keyboard.type(typed);
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}

async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, `${where}: the page is ${scroll}px wide in a ${client}px window`).toBeLessThanOrEqual(client);
}

/** The locator's box lies inside the window (a dialog, a button) or inside the page's width (a table). */
async function expectInside(page: Page, locator: Locator, what: string, { vertically = true } = {}): Promise<void> {
  const viewport = page.viewportSize()!;
  await expect
    .poll(
      async () => {
        const b = await locator.boundingBox();
        return b !== null && b.x >= -0.5 && b.x + b.width <= viewport.width + 0.5 && (!vertically || (b.y >= -0.5 && b.y + b.height <= viewport.height + 0.5));
      },
      { message: `${what} inside the ${viewport.width}×${viewport.height} window`, timeout: 5_000 },
    )
    .toBe(true);
}

async function signIn(page: Page, viewport = DESKTOP): Promise<void> {
  await page.setViewportSize(viewport);
  await logInThroughForm(page, email, PASSWORD);
  await waitForPath(page, '/dashboard');
}

describe('the documents journey', () => {
  it(
    'creates a bill with two lines, pays it by connecting a bank transaction, sees PAID and the transaction locked with the reason',
    async () => {
      const vendor = await created<{ id: string; name: string }>('/vendors', { name: 'Journey Landlord' }, 'vendor');
      // Money out the bill can be paid by: not a transfer, not finalized, not linked yet, large enough for two lines.
      const out = (await transactions()).find(
        (t) => t.amount <= -20 && !t.isTransactionFinalized && !t.entityType && !/transfer/i.test(`${t.category?.name} ${t.category?.type ?? ''}`),
      );
      expect(out, 'the sandbox gave no payment out of at least $20').toBeDefined();
      const paid = Math.abs(out!.amount);
      const second = 10;
      const first = Math.round((paid - second) * 100) / 100;

      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);
        await page.goto('/accounting');
        await page.getByRole('tab', { name: 'Bills' }).click();
        await poll(() => param(page, 'tab')).toBe('bills');
        await visible(page.getByText('No bills', { exact: true }));

        await page.getByRole('button', { name: 'New bill' }).click();
        await poll(() => param(page, 'mode')).toBe('create');
        const editor = await visible(dialogNamed(page, 'New bill'));
        // Refused empty, each problem on its field.
        await editor.getByRole('button', { name: 'Save bill' }).click();
        await visible(editor.getByText('Vendor is required'));
        await visible(editor.getByText('At least one line item is required'));

        await choose(page, editor.getByRole('combobox', { name: 'Vendor', exact: true }), vendor.name);
        await editor.getByRole('textbox', { name: 'Invoice code' }).fill('LL-2026-03');
        await editor.getByRole('textbox', { name: 'Line 1 service' }).fill('Office rent');
        await choose(page, editor.getByRole('combobox', { name: 'Line 1 category' }), 'Rent');
        await editor.getByRole('textbox', { name: 'Line 1 amount' }).fill(first.toFixed(2));
        await editor.getByRole('button', { name: 'Add line' }).click();
        await editor.getByRole('textbox', { name: 'Line 2 service' }).fill('Cleaning');
        await choose(page, editor.getByRole('combobox', { name: 'Line 2 category' }), 'Rent');
        await editor.getByRole('textbox', { name: 'Line 2 amount' }).fill(String(second));
        await poll(() => editor.getByRole('definition').first().textContent()).toBe(money(paid));
        // The dialog fits the window and its Save stays in view (pinned below the scrolling form).
        await expectInside(page, editor, 'the bill editor');
        await expectInside(page, editor.getByRole('button', { name: 'Save bill' }), 'the bill editor’s Save button');
        await shot(page, 'bill-editor-1440');
        await editor.getByRole('button', { name: 'Save bill' }).click();
        await visible(notice(page, 'status', 'Bill created'));

        // Saved: it opens with mode=view; unpaid until a payment is connected.
        await poll(() => param(page, 'bill')).toMatch(/^[0-9a-f-]{36}$/);
        expect(param(page, 'mode')).toBe('view');
        const billId = param(page, 'bill')!;
        const view = await visible(dialogNamed(page, `Bill: ${vendor.name}`));
        await visible(view.getByText('UNPAID', { exact: true }));
        await visible(view.getByRole('table', { name: 'Line items' }).getByRole('cell', { name: 'Cleaning' }));

        // Pay it: Edit, connect the bank transaction (its whole amount is what is owed), save.
        await view.getByRole('button', { name: 'Edit' }).click();
        await poll(() => param(page, 'mode')).toBe('edit');
        const edit = await visible(dialogNamed(page, 'Edit bill'));
        const connect = edit.getByRole('combobox', { name: 'Connect a bank transaction' });
        await connect.click();
        await page.keyboard.type(money(paid));
        await page
          .getByRole('listbox')
          .getByRole('option')
          .filter({ hasText: money(paid) })
          .first()
          .click();
        await poll(() => edit.getByRole('textbox', { name: 'Payment 1 amount' }).inputValue()).toBe(paid.toFixed(2));
        await visible(edit.getByText(`Paid ${money(paid)} of ${money(paid)}`));
        await expectInside(page, edit.getByRole('button', { name: 'Save bill' }), 'the bill editor’s Save button with a payment');
        await shot(page, 'bill-payment-1440');
        await edit.getByRole('button', { name: 'Save bill' }).click();
        await visible(notice(page, 'status', 'Bill updated'));
        const paidView = await visible(dialogNamed(page, `Bill: ${vendor.name}`));
        await visible(paidView.getByText('PAID', { exact: true }));
        const payments = paidView.getByRole('region', { name: 'Payments' });
        await visible(payments.getByText(money(paid), { exact: true }));
        await expectInside(page, paidView, 'the paid bill');
        await shot(page, 'bill-paid-1440');
        const bill = (await api('GET', `/accounting/bill/${billId}`)).body;
        expect(bill).toMatchObject({ paymentStatus: 'PAID', totalAmount: paid, connectedTransactions: [{ id: out!.id, amount: paid }] });

        // The list shows it paid.
        await paidView.getByRole('button', { name: 'Close' }).click();
        const table = await visible(page.getByRole('table', { name: 'Bills' }));
        const row = table.getByRole('row').filter({ hasText: vendor.name });
        await visible(row.getByText('PAID', { exact: true }));
        await expectInside(page, table, 'the bills table', { vertically: false });
        await expectNoHorizontalScroll(page, 'bills at 1440');
        await shot(page, 'bills-1440');

        // The transaction, in its drawer: locked, why, and the way to the bill.
        await page.goto(`/transactions?tab=all&txn=${out!.id}`);
        const drawer = page.getByRole('dialog', { name: out!.biller?.name || out!.memo || 'Bank transaction' });
        const note = await visible(drawer.getByRole('note'));
        await visible(note.getByText('This transaction is linked to a bill and cannot be edited here', { exact: true }));
        expect(await drawer.getByRole('combobox', { name: 'Category' }).isDisabled()).toBe(true);
        await shot(page, 'transaction-locked-1440');
        await note.getByRole('link', { name: 'Open the linked bill' }).click();
        await waitForPath(page, '/accounting');
        await poll(() => [param(page, 'tab'), param(page, 'bill'), param(page, 'mode')]).toEqual(['bills', billId, 'view']);
        await visible(dialogNamed(page, `Bill: ${vendor.name}`));
      });
      const txn = (await api('GET', `/transactions/v2/${out!.id}`)).body as Txn;
      expect([txn.entityType, txn.entityId]).toEqual(['Bill', expect.any(String)]);
    },
    TEST_MS,
  );

  it(
    'creates an invoice from quantity × rate, downloads its PDF (pdftotext), recurs it three times and stops it, voids it and finds it under Voided',
    async () => {
      const customer = await created<{ id: string; name: string }>('/customers', { name: 'Journey Client' }, 'customer');
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);
        await page.goto('/accounting?tab=invoices&mode=create');
        const editor = await visible(dialogNamed(page, 'New invoice'));
        await choose(page, editor.getByRole('combobox', { name: 'Customer' }), customer.name);
        await editor.getByRole('textbox', { name: 'Ref no' }).fill('INV-7');
        await editor.getByRole('textbox', { name: 'Company name' }).fill('Analytical Co');
        await editor.getByRole('textbox', { name: 'Line 1 service' }).fill('Consulting');
        await choose(page, editor.getByRole('combobox', { name: 'Line 1 category' }), 'Sales');
        // Spec §5: the amount is quantity × rate, and says so.
        const amount = editor.getByRole('textbox', { name: 'Line 1 amount' });
        expect(await amount.getAttribute('title')).toBe('Enter Qty and Rate to update Amount');
        expect(await amount.inputValue()).toBe('');
        await editor.getByRole('textbox', { name: 'Line 1 quantity' }).fill('3');
        await editor.getByRole('textbox', { name: 'Line 1 rate' }).fill('150');
        await poll(() => amount.inputValue()).toBe('450.00');
        await poll(() => editor.getByRole('definition').first().textContent()).toBe('$450.00');
        await expectInside(page, editor, 'the invoice editor');
        await expectInside(page, editor.getByRole('button', { name: 'Save invoice' }), 'the invoice editor’s Save button');
        await shot(page, 'invoice-editor-1440');
        await editor.getByRole('button', { name: 'Save invoice' }).click();
        await visible(notice(page, 'status', 'Invoice created'));
        const view = await visible(dialogNamed(page, `Invoice: ${customer.name}`));
        const id = param(page, 'invoice')!;
        await visible(view.getByText('INV-7', { exact: true }));
        await visible(view.getByRole('button', { name: 'Download PDF' }));
        // Download PDF saves GET /invoice/{id}/pdf; its text (pdftotext, Debian's poppler-utils) names the customer, the
        // total and the due date the API holds.
        const [file] = await Promise.all([page.waitForEvent('download'), view.getByRole('button', { name: 'Download PDF' }).click()]);
        expect(file.suggestedFilename()).toMatch(/\.pdf$/);
        const pdf = execFileSync('pdftotext', ['-layout', (await file.path())!, '-']).toString('utf8');
        const { dueDate } = (await api('GET', `/accounting/invoice/${id}`)).body as { dueDate: string };
        const due = new Date(`${dueDate}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
        expect(pdf).toContain(customer.name);
        expect(pdf).toMatch(/Total\s+\$450\.00/);
        expect(pdf).toMatch(new RegExp(`Due date\\s+${due}`));
        await shot(page, 'invoice-view-1440');

        // Recur it monthly, three times in all; the dialog keeps its actions in view; then stop the schedule.
        await view.getByRole('button', { name: 'Recur', exact: true }).click();
        const recur = await visible(dialogNamed(page, 'Recur this invoice'));
        await recur.getByRole('button', { name: /^Ends/ }).click();
        await page.getByRole('option', { name: 'After a number of times', exact: true }).click();
        await recur.getByRole('textbox', { name: 'Occurrences' }).fill('3');
        await expectInside(page, recur.getByRole('button', { name: 'Save schedule' }), 'the recur dialog’s Save button');
        await shot(page, 'invoice-recur-1440');
        await recur.getByRole('button', { name: 'Save schedule' }).click();
        await poll(async () => await dialogNamed(page, 'Recur this invoice').count()).toBe(0);
        await poll(async () => (await api('GET', `/accounting/invoice/${id}`)).body).toMatchObject({
          recurrence: { isRecurredParent: true, interval: 'monthly', recurringEndType: 'count', recurringCount: 3, activity: 'Active' },
        });
        // The view says so: interval, start, end and activity.
        await visible(view.getByText(/^Monthly from \d{2}\/\d{2}\/\d{2}, 3 times · Active · next /));
        await shot(page, 'invoice-recurring-1440');
        await view.getByRole('button', { name: 'Recur', exact: true }).click();
        await (await visible(dialogNamed(page, 'Recur this invoice'))).getByRole('button', { name: 'Stop recurring' }).click();
        await poll(async () => await dialogNamed(page, 'Recur this invoice').count()).toBe(0);
        await poll(async () => (await api('GET', `/accounting/invoice/${id}`)).body).toMatchObject({ recurrence: { activity: 'Stopped' } });
        await visible(view.getByText(/^Monthly from .*, 3 times · Stopped$/));

        await view.getByRole('button', { name: 'Void', exact: true }).click();
        await view.getByRole('button', { name: 'Void invoice' }).click();
        await visible(notice(page, 'status', 'Invoice voided'));
        await visible(view.getByText('Voided', { exact: true }).first());
        expect(await view.getByRole('button', { name: 'Edit' }).isDisabled()).toBe(true);
        await view.getByRole('button', { name: 'Close' }).click();
        expect((await api('GET', `/accounting/invoice/${id}`)).body).toMatchObject({ status: 'Voided', voided: true, totalAmount: 450 });

        // The status filter: Voided lists it, Posted does not; the filter is in the URL.
        await page.getByRole('button', { name: /^Status/ }).click();
        await page.getByRole('option', { name: 'Voided', exact: true }).click();
        await poll(() => param(page, 'filter')).toBe('Voided');
        const table = await visible(page.getByRole('table', { name: 'Invoices' }));
        await visible(table.getByRole('row').filter({ hasText: customer.name }));
        await shot(page, 'invoices-voided-1440');
        await page.getByRole('button', { name: /^Status/ }).click();
        await page.getByRole('option', { name: 'Posted', exact: true }).click();
        await poll(() => param(page, 'filter')).toBe('Posted');
        await visible(page.getByText('No invoices (Posted)', { exact: true }));
      });
    },
    TEST_MS,
  );

  it(
    'refuses an unbalanced manual journal, then posts it balanced',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);
        await page.goto('/accounting?tab=manual-journal');
        await page.getByRole('button', { name: 'New manual journal' }).click();
        const editor = await visible(dialogNamed(page, 'New manual journal'));
        await editor.getByRole('textbox', { name: 'Memo' }).fill('Owner pays rent personally');
        await choose(page, editor.getByRole('combobox', { name: 'Line 1 account' }), 'Rent');
        await editor.getByRole('textbox', { name: 'Line 1 debit' }).fill('100');
        await choose(page, editor.getByRole('combobox', { name: 'Line 2 account' }), 'Sales');
        await editor.getByRole('textbox', { name: 'Line 2 credit' }).fill('90');
        const totals = editor.getByRole('definition');
        await poll(() => totals.allTextContents()).toEqual(['$100.00', '$90.00', '$10.00']);
        // Asked of the server without posting (POST /accounting/manual-entry/check), then refused when saved.
        await editor.getByRole('button', { name: 'Check balance' }).click();
        await visible(editor.getByText('The entry does not balance: debits exceed credits by 10.00', { exact: true }));
        await editor.getByRole('button', { name: 'Save manual journal' }).click();
        // The ledger's rule, said by the server, on the lines.
        await visible(editor.getByText('Total debits (100.00) must equal total credits (90.00)', { exact: true }));
        expect(param(page, 'mode')).toBe('create');
        await expectInside(page, editor, 'the journal editor');
        await shot(page, 'journal-unbalanced-1440');

        const credit = editor.getByRole('textbox', { name: 'Line 2 credit' });
        await credit.fill('100');
        await poll(() => totals.allTextContents()).toEqual(['$100.00', '$100.00', '$0.00']);
        // The check's answer was about the form as it was; it goes once the form changes.
        expect(await editor.getByText(/^The entry does not balance/).count()).toBe(0);
        // From the keyboard: Enter in a field saves.
        await credit.press('Enter');
        await visible(notice(page, 'status', 'Manual entry created'));
        await poll(() => param(page, 'manualJournal')).toMatch(/^[0-9a-f-]{36}$/);
        const view = await visible(dialogNamed(page, /^Manual journal: /));
        await visible(view.getByText('Owner pays rent personally', { exact: true }));
        await visible(view.getByText('Posted', { exact: true }).first());
        await view.getByRole('button', { name: 'Close' }).click();
        const table = await visible(page.getByRole('table', { name: 'Manual journals' }));
        await visible(table.getByRole('row').filter({ hasText: 'Owner pays rent personally' }));
        await shot(page, 'journals-1440');
      });
      const list = (await api('GET', '/accounting/manual-entries')).body as { data: { memo: string; totalAmount: number; status: string }[] };
      expect(list.data).toEqual([expect.objectContaining({ memo: 'Owner pays rent personally', totalAmount: 100, status: 'Posted' })]);
    },
    TEST_MS,
  );

  it(
    'keeps the vendor credit editor’s Save in view at 1440×900 with two lines',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page);
        await page.goto('/expenses?tab=vendor-credit&mode=create');
        const editor = await visible(dialogNamed(page, 'New vendor credit'));
        await editor.getByRole('button', { name: 'Add line' }).click();
        await visible(editor.getByRole('textbox', { name: 'Line 2 amount' }));
        await expectInside(page, editor, 'the vendor credit editor');
        for (const name of ['Save vendor credit', 'Cancel'])
          await expectInside(page, editor.getByRole('button', { name }), `the vendor credit editor’s ${name}`);
        await shot(page, 'vendor-credit-editor-1440');
      });
    },
    TEST_MS,
  );

  it(
    'at 390×844: the documents never scroll sideways, their editors are full-screen sheets with the buttons in view',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page, PHONE);
        for (const [tab, name] of [
          ['bills', 'Bills'],
          ['invoices', 'Invoices'],
          ['manual-journal', 'Manual journals'],
        ] as const) {
          await page.goto(`/accounting?tab=${tab}`);
          const table = await visible(page.getByRole('table', { name }));
          await expectInside(page, table, `the ${name} table at 390`, { vertically: false });
          await expectNoHorizontalScroll(page, `${name} at 390`);
          await shot(page, `${tab}-390`);
        }
        await page.goto('/accounting?tab=bills');
        const bills = await visible(page.getByRole('table', { name: 'Bills' }));
        expect(await bills.getByRole('columnheader', { name: 'Invoice code' }).isVisible()).toBe(false);
        // A bill opened on a phone: a full-screen sheet, its actions in view.
        await bills.getByRole('row').nth(1).getByRole('button').first().click();
        const view = await visible(dialogNamed(page, /^Bill: /));
        await visible(view.getByRole('table', { name: 'Line items' }));
        await expectInside(page, view, 'the bill sheet');
        await expectInside(page, view.getByRole('button', { name: 'Close' }), 'the bill sheet’s Close button');
        await expectNoHorizontalScroll(page, 'the bill sheet at 390');
        await shot(page, 'bill-view-390');
        await view.getByRole('button', { name: 'Close' }).click();
        await poll(() => param(page, 'bill')).toBe(null);
        await page.getByRole('button', { name: 'New bill' }).click();
        const editor = await visible(dialogNamed(page, 'New bill'));
        await editor.getByRole('button', { name: 'Add line' }).click();
        const box = await boxOf(editor, 'the bill sheet');
        expect(Math.round(box.width)).toBe(PHONE.width);
        await expectInside(page, editor, 'the bill sheet');
        await expectInside(page, editor.getByRole('button', { name: 'Save bill' }), 'the bill sheet’s Save button');
        await expectNoHorizontalScroll(page, 'the bill sheet at 390');
        await shot(page, 'bill-editor-390');
        await page.keyboard.press('Escape');
        await poll(() => param(page, 'mode')).toBe(null);

        await page.goto('/accounting?tab=invoices&mode=create');
        const invoice = await visible(dialogNamed(page, 'New invoice'));
        await expectInside(page, invoice.getByRole('button', { name: 'Save invoice' }), 'the invoice sheet’s Save button');
        await expectNoHorizontalScroll(page, 'the invoice sheet at 390');
        await shot(page, 'invoice-editor-390');
      });
    },
    TEST_MS,
  );
});
