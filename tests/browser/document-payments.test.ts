// Payments by manual journals and credits in the document editors (issue #18 items 4 and 7, decision 0020), the
// notices kept clear of a dialog's pinned actions (the ui kit), and the transaction drawer of a linked transaction,
// in real Chromium against the real stack (gateway, identity, banking with the Plaid sandbox, ledger, reporting,
// parties, documents). Layout is asserted by bounding boxes at 1440×900 and 390×844. Screenshots in
// test-results/screenshots/document-payments-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boxOf,
  dialogNamed,
  expectInsideWindow,
  expectNoHorizontalScroll,
  inFreshPage,
  launchBrowser,
  notice,
  settledBox,
  startPartiesWebSession,
  type PartiesWebSession,
  STEP_MS,
  TEST_MS,
  visible,
  waitForPath,
} from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let session: PartiesWebSession;
let browser: Browser;
let categories: Record<string, string>;

interface Txn {
  id: string;
  amount: number;
  memo: string;
  biller: { id: string; name: string } | null;
  category: { id: string; name: string; type?: string } | null;
  isTransactionFinalized: boolean;
  entityType: string | null;
}
type Box = { x: number; y: number; width: number; height: number };

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: STEP_MS });
const api = (method: string, path: string, body?: unknown) => session.api(method, path, body);
const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`document-payments-${name}.png`, SCREENSHOTS).pathname, fullPage: true });
const money = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);
const today = () => new Date().toISOString().slice(0, 10);

async function created<T>(method: string, path: string, body: unknown, key: string): Promise<T> {
  const r = await api(method, path, body);
  if (r.status !== 201 && r.status !== 200) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body[key] as T;
}

const category = (name: string): string => {
  const id = categories[name];
  if (!id) throw new Error(`no category named ${name}`);
  return id;
};

/** A bill of `amount` in `lines` equal lines for the vendor, dated today (the API's own call: the editors are what this file tests). */
const newBill = (vendorId: string, amount: number, code: string, lines = 1) =>
  created<{ id: string }>(
    'POST',
    '/accounting/bill/v2',
    {
      billDate: today(),
      vendorId,
      invoiceCode: code,
      lineItems: Array.from({ length: lines }, (_, i) => ({
        serviceName: lines === 1 ? 'Studio rent' : `Studio rent, week ${i + 1}`,
        categoryId: category('Rent'),
        amount: amount / lines,
      })),
    },
    'bill',
  );

/** A journal that debits Accounts Payable by `amount` (so it can pay bills up to that) against Rent. */
const apJournal = (memo: string, amount: number) =>
  created<{ id: string }>(
    'POST',
    '/accounting/manual-entry/v2',
    {
      memo,
      postingDate: today(),
      lineItems: [
        { categoryId: category('Accounts Payable'), type: 'debit', amount },
        { categoryId: category('Rent'), type: 'credit', amount },
      ],
    },
    'manualEntry',
  );

const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * With the success notice `text` on screen over the open dialog: the notice's box meets neither the dialog's pinned
 * action bar nor any of its buttons, and the dialog ends above the room the notices take (`--notice-space-bottom`).
 * `fills`: the dialog is as tall as that leaves it (`margin` px short at most), so without the room its actions would sit
 * where the notice is. Everything is read in one call in the page, once the dialog holds still, so it is one moment
 * of the screen (a notice fades after 5 seconds).
 */
async function expectNoticeClearOfActions(page: Page, dialog: Locator, text: string, where: string, margin: number): Promise<void> {
  await visible(notice(page, 'status', text));
  await settledBox(dialog, `${where}: the dialog`);
  const m = await dialog.evaluate((panel, wanted) => {
    const rect = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const shown = [...document.querySelectorAll('[data-notice-region="bottom"] [role="status"]')].filter((n) => n.textContent?.includes(wanted));
    const actions = panel.querySelector('[data-dialog-actions]');
    return {
      notice: shown.length > 0 ? rect(shown[shown.length - 1]!) : null,
      actions: actions ? rect(actions) : null,
      buttons: actions ? [...actions.querySelectorAll('button')].map((b) => ({ name: b.textContent ?? '', box: rect(b) })) : [],
      panel: rect(panel),
      room: parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--notice-space-bottom')) || 0,
      height: window.innerHeight,
    };
  }, text);
  expect(m.notice, `${where}: the notice “${text}” was still on screen when measured`).not.toBeNull();
  expect(m.actions, `${where}: the dialog's action bar`).not.toBeNull();
  expect(m.room, `${where}: the notices' room at the bottom`).toBeGreaterThanOrEqual(m.notice!.height);
  expect(intersects(m.actions!, m.notice!), `${where}: the action bar ${JSON.stringify(m.actions)} under the notice ${JSON.stringify(m.notice)}`).toBe(false);
  for (const b of m.buttons)
    expect(intersects(b.box, m.notice!), `${where}: “${b.name}” ${JSON.stringify(b.box)} under the notice ${JSON.stringify(m.notice)}`).toBe(false);
  expect(m.panel.y + m.panel.height, `${where}: the dialog ends above the notices' room`).toBeLessThanOrEqual(m.height - m.room + 0.5);
  expect(m.panel.height, `${where}: the dialog fills the height the window leaves it`).toBeGreaterThanOrEqual(m.height - m.room - margin - 1);
}

/** Nothing in the dialog's scrolling content is wider than it (a long payment's name is cut with an ellipsis instead). */
async function expectBodyFits(dialog: Locator, where: string): Promise<void> {
  const { scroll, client } = await dialog.locator('[data-dialog-body]').evaluate((body) => ({ scroll: body.scrollWidth, client: body.clientWidth }));
  expect(scroll, `${where}: the content is ${scroll}px wide in a ${client}px dialog`).toBeLessThanOrEqual(client);
}

/** A dropdown panel at least as wide as its field (not collapsed), with options, wholly inside the window. */
async function expectPanelLaidOut(page: Page, field: Locator, where: string): Promise<void> {
  const list = await visible(page.getByRole('listbox'));
  const fieldBox = await boxOf(field, `${where}: the field`);
  const box = await settledBox(list, `${where}: the panel`);
  const viewport = page.viewportSize()!;
  expect(box.width, `${where}: panel ${box.width}px wide under a ${fieldBox.width}px field`).toBeGreaterThanOrEqual(fieldBox.width - 0.5);
  expect(box.height, `${where}: panel height`).toBeGreaterThan(30);
  expect(box.x, `${where}: panel left edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box.y, `${where}: panel top edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box.x + box.width, `${where}: panel right edge`).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box.y + box.height, `${where}: panel bottom edge`).toBeLessThanOrEqual(viewport.height + 0.5);
}

/** Opens the combobox, checks its panel's box, types `typed` and picks the option whose name contains `option`. */
async function pick(page: Page, combobox: Locator, typed: string, option: string, where: string): Promise<void> {
  await combobox.click();
  await expectPanelLaidOut(page, combobox, where);
  await page.keyboard.type(typed);
  await page.getByRole('listbox').getByRole('option').filter({ hasText: option }).first().click();
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [session, browser] = await Promise.all([startPartiesWebSession({ transactions: 30, reporting: true, documents: true }), launchBrowser()]);
  const list = (await api('GET', '/categories')).body as { categories: { id: string; name: string }[] };
  categories = Object.fromEntries(list.categories.map((c) => [c.name, c.id]));
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await session?.system.stop();
});

describe('payments by manual journal and vendor credit', () => {
  it(
    'at 1440×900: pays a bill with a journal and a vendor credit in its editor, sees PAID; the notice never covers the dialog’s actions',
    async () => {
      const vendor = await created<{ id: string; name: string }>('POST', '/vendors', { name: 'Harbor Lofts' }, 'vendor');
      // Ten lines: the bill's view is as tall as the window allows, its actions pinned at the bottom, where notices show.
      const bill = await newBill(vendor.id, 250, 'HL-0425', 10);
      const journal = await apJournal('Rent settled by the owner', 150);
      const credit = await created<{ id: string }>(
        'POST',
        '/vendors/vendor-credit',
        {
          paymentDate: today(),
          vendorId: vendor.id,
          description: 'Deposit returned',
          lineItems: [{ description: 'Deposit', categoryId: category('Rent'), amount: 100 }],
        },
        'vendorCredit',
      );

      await inFreshPage(browser, session.system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        await page.goto(`/accounting?tab=bills&bill=${bill.id}&mode=edit`);
        const editor = await visible(dialogNamed(page, 'Edit bill'));
        await visible(editor.getByText(`Paid ${money(0)} of ${money(250)}`));
        await visible(editor.getByText('UNPAID', { exact: true }));

        // The journal: the picker opens at least as wide as its field and inside the window; what is still open is offered.
        await pick(page, editor.getByRole('combobox', { name: 'Connect a manual journal' }), 'Rent settled', 'Rent settled by the owner', 'the journal picker');
        await poll(() => editor.getByRole('textbox', { name: 'Journal 1 amount' }).inputValue()).toBe('150.00');
        await visible(editor.getByText(`Paid ${money(150)} of ${money(250)}`));
        await visible(editor.getByText('PARTIALLY PAID', { exact: true }));

        // The vendor credit (only this vendor's are offered), from the keyboard: type, arrow down, Enter.
        const creditPicker = editor.getByRole('combobox', { name: 'Apply a vendor credit' });
        await creditPicker.click();
        await expectPanelLaidOut(page, creditPicker, 'the vendor credit picker');
        await page.keyboard.type('Harbor');
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        await poll(() => editor.getByRole('textbox', { name: 'Credit 1 amount' }).inputValue()).toBe('100.00');
        await visible(editor.getByText(`Paid ${money(250)} of ${money(250)}`));
        await visible(editor.getByText('PAID', { exact: true }));
        await expectInsideWindow(page, editor, 'the bill editor');
        await expectInsideWindow(page, editor.getByRole('button', { name: 'Save bill' }), 'the bill editor’s Save button');
        await expectNoHorizontalScroll(page, 'the bill editor with payments at 1440');
        await expectBodyFits(editor, 'the bill editor at 1440');
        await shot(page, 'bill-editor-1440');

        await editor.getByRole('button', { name: 'Save bill' }).click();
        // Saved: the view opens under the success notice. It is as tall as the window allows (ten lines, the payments),
        // its actions pinned at its bottom, and it ends above the notice's room, so the notice covers none of them.
        const paid = await visible(dialogNamed(page, `Bill: ${vendor.name}`));
        // A centred card: 1rem from the window's top.
        await expectNoticeClearOfActions(page, paid, 'Bill updated', 'the bill view at 1440', 16);
        await shot(page, 'notice-and-view-1440');

        // The view: PAID, each payment named and linked, no difference left to explain.
        await visible(paid.getByText('PAID', { exact: true }));
        const payments = paid.getByRole('region', { name: 'Payments' });
        await visible(payments.getByRole('link', { name: /^Manual journal: Rent settled by the owner/ }));
        await visible(payments.getByRole('link', { name: /^Vendor credit: Harbor Lofts/ }));
        await expectInsideWindow(page, paid, 'the paid bill');
        await expectBodyFits(paid, 'the paid bill at 1440');
        await shot(page, 'bill-paid-1440');

        // The journal's view says which bill it pays.
        await payments.getByRole('link', { name: /^Manual journal: / }).click();
        await poll(() => [param(page, 'tab'), param(page, 'manualJournal')]).toEqual(['manual-journal', journal.id]);
        const journalView = await visible(dialogNamed(page, /^Manual journal: /));
        const pays = journalView.getByRole('region', { name: 'Pays' });
        await visible(pays.getByRole('link', { name: /^Bill: Harbor Lofts · HL-0425/ }));
        await visible(pays.getByText(money(150), { exact: true }));
        await shot(page, 'journal-pays-1440');
      });
      expect((await api('GET', `/accounting/bill/${bill.id}`)).body).toMatchObject({
        paymentStatus: 'PAID',
        paidAmount: 250,
        connectedManualEntries: [{ id: journal.id, amount: 150 }],
        connectedVendorCredits: [{ id: credit.id, amount: 100 }],
        differenceMessages: [],
      });
      expect((await api('GET', `/accounting/manual-entry/${journal.id}`)).body).toMatchObject({ paidBills: [{ id: bill.id, amount: 150 }] });
    },
    TEST_MS,
  );

  it(
    'at 390×844: a manual journal pays a bill from its editor (the server checks as it is typed); nothing overflows; the notice stays clear of the sheet’s actions',
    async () => {
      const vendor = await created<{ id: string; name: string }>('POST', '/vendors', { name: 'Pier Storage' }, 'vendor');
      const bill = await newBill(vendor.id, 80, 'PS-7');
      const journal = await apJournal('Storage paid from savings', 60);

      await inFreshPage(browser, session.system.webUrl, async (page) => {
        await session.signIn(page, PHONE);
        await page.goto(`/accounting?tab=manual-journal&manualJournal=${journal.id}&mode=edit`);
        const editor = await visible(dialogNamed(page, 'Edit manual journal'));
        await pick(page, editor.getByRole('combobox', { name: 'Pay a bill' }), 'Pier', 'Pier Storage · PS-7', 'the bill picker at 390');
        // Offered at what the bill still owes; the journal can pay 60 of it.
        const amount = editor.getByRole('textbox', { name: 'Bill 1 amount' });
        await poll(() => amount.inputValue()).toBe('80.00');
        await amount.fill('60');
        const check = editor.getByRole('region', { name: 'Payment check' });
        await visible(check.getByText(/^Bill Pier Storage.*: pays \$60\.00, leaves \$20\.00$/));
        await visible(check.getByText('PARTIALLY PAID', { exact: true }));
        const box = await boxOf(editor, 'the journal sheet');
        expect(Math.round(box.width)).toBe(PHONE.width);
        await expectNoHorizontalScroll(page, 'the journal sheet at 390');
        await expectBodyFits(editor, 'the journal sheet at 390');
        await expectInsideWindow(page, editor.getByRole('button', { name: 'Save manual journal' }), 'the journal sheet’s Save button');
        await shot(page, 'journal-editor-390');

        await editor.getByRole('button', { name: 'Save manual journal' }).click();
        const view = await visible(dialogNamed(page, /^Manual journal: /));
        // The full-screen sheet's actions sit at its bottom edge, which ends above the notices' room.
        await expectNoticeClearOfActions(page, view, 'Manual entry updated', 'the journal sheet at 390', 0);
        await visible(view.getByRole('region', { name: 'Pays' }).getByRole('link', { name: /^Bill: Pier Storage · PS-7/ }));
        await expectNoHorizontalScroll(page, 'the journal view at 390');
        await expectBodyFits(view, 'the journal view at 390');
        await shot(page, 'journal-view-390');

        // The bill, opened on the phone: PARTIALLY PAID, why, and its payments, inside the sheet.
        await page.goto(`/accounting?tab=bills&bill=${bill.id}&mode=view`);
        const billView = await visible(dialogNamed(page, `Bill: ${vendor.name}`));
        await visible(billView.getByText('PARTIALLY PAID', { exact: true }));
        await visible(billView.getByText('Payments of 60.00 leave 20.00 of 80.00 unpaid', { exact: true }));
        // It was saved with no due date: the view says none rather than a made-up date.
        expect(await billView.locator('dt:text-is("Due date") + dd').textContent()).toBe('—');
        await expectNoHorizontalScroll(page, 'the bill view at 390');
        await expectBodyFits(billView, 'the bill view at 390');
        await shot(page, 'bill-partly-paid-390');
      });
      expect((await api('GET', `/accounting/bill/${bill.id}`)).body).toMatchObject({
        paymentStatus: 'PARTIALLY_PAID',
        connectedManualEntries: [{ id: journal.id, amount: 60 }],
      });
    },
    TEST_MS,
  );
});

describe('the drawer of a transaction that pays a bill', () => {
  it(
    'shows the linked bill and why the transaction cannot be edited, inside the window at 1440×900 and 390×844',
    async () => {
      const vendor = await created<{ id: string; name: string }>('POST', '/vendors', { name: 'Quay Utilities' }, 'vendor');
      const out = ((await api('GET', '/transactions/v2?take=100')).body.data as Txn[]).find(
        (t) => t.amount <= -5 && !t.isTransactionFinalized && !t.entityType && !/transfer/i.test(`${t.category?.name} ${t.category?.type ?? ''}`),
      );
      expect(out, 'the sandbox gave no payment out of at least $5').toBeDefined();
      const amount = Math.abs(out!.amount);
      const bill = await newBill(vendor.id, amount, 'QU-1');
      const put = await api('PUT', `/accounting/bill/${bill.id}`, {
        billDate: today(),
        vendorId: vendor.id,
        invoiceCode: 'QU-1',
        lineItems: [{ serviceName: 'Studio rent', categoryId: category('Rent'), amount }],
        connectedTransactions: [{ id: out!.id, amount }],
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);

      for (const viewport of [DESKTOP, PHONE]) {
        await inFreshPage(browser, session.system.webUrl, async (page) => {
          await session.signIn(page, viewport);
          await page.goto(`/transactions?tab=all&txn=${out!.id}`);
          const drawer = page.getByRole('dialog', { name: out!.biller?.name || out!.memo || 'Bank transaction' });
          const note = await visible(drawer.getByRole('note'));
          await visible(note.getByText('This transaction is linked to a bill and cannot be edited here', { exact: true }));
          const link = note.getByRole('link', { name: 'Open the linked bill' });
          await expectInsideWindow(page, note, `the drawer’s note at ${viewport.width}`);
          await expectInsideWindow(page, link, `the link to the bill at ${viewport.width}`);
          expect(await drawer.getByRole('combobox', { name: 'Category' }).isDisabled()).toBe(true);
          await expectNoHorizontalScroll(page, `the drawer at ${viewport.width}`);
          await shot(page, `drawer-linked-${viewport.width}`);
          await link.click();
          await waitForPath(page, '/accounting');
          await poll(() => [param(page, 'tab'), param(page, 'bill')]).toEqual(['bills', bill.id]);
          await visible(dialogNamed(page, `Bill: ${vendor.name}`));
        });
      }
    },
    TEST_MS,
  );
});
