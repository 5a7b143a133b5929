// Bulk upload of bills (issue #19 items 3, 5 and 8; decision 0029) in real Chromium against the real stack (gateway,
// identity, banking, ledger, parties, documents with the S3 sandbox): two bills rendered to PDF by the reading corpus go
// up through "Upload bills" on the bills tab ('Bill uploaded successfully.'); the import notices follow the 'bulk upload'
// job of GET /jobs ('Importing' / 'Please wait while we finish uploading', then 'Import Complete!' / 'Click here to
// review and save them' with View); View opens mode=bulk-draft, where each draft shows what was read — the vendor,
// already picked because a vendor of that name exists, the invoice number and the total; a category is chosen per draft
// and both are created as bills. An invoice uploaded from the invoices tab ends in the invoices review with its
// customer picked. Layout of the review at 390 px: the table inside the window, names wrapped, the
// disabled "Create bills" readable. Screenshots in test-results/screenshots/bulk-upload-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDoc, renderPdf, type CorpusDoc } from '../../services/documents/test/reading-corpus.js';
import {
  boxOf,
  dialogNamed,
  expectInsideWindow,
  expectNoHorizontalScroll,
  inFreshPage,
  launchBrowser,
  startPartiesWebSession,
  STEP_MS,
  TEST_MS,
  type PartiesWebSession,
} from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const JOB_MS = 60_000;

let session: PartiesWebSession;
let browser: Browser;

const BILLS = [
  { file: 'northwind-bill.pdf', vendor: 'Northwind Traders', number: 'NW-4411', date: '2026-03-02', due: '2026-04-01', line: 'Shipping crates', total: 642.5 },
  { file: 'summit-bill.pdf', vendor: 'Summit Office Supply', number: 'SOS-2290', date: '2026-03-05', due: '2026-03-20', line: 'Printer paper', total: 88.4 },
];

/** A bill of the corpus's look from this vendor with one line, in dollars, dates written in full. */
function billPdf(n: number, b: (typeof BILLS)[number]): Promise<Buffer> {
  const base = corpusDoc(31, n * 3 + 1, ['bill']);
  const doc: CorpusDoc = {
    ...base,
    kind: 'bill',
    merchant: b.vendor,
    date: b.date,
    dueDate: b.due,
    dateFormat: 'month-d-yyyy',
    invoiceNumber: b.number,
    currency: 'USD',
    lines: [{ description: b.line, quantity: 1, rate: b.total, amount: b.total }],
    subtotal: b.total,
    tax: 0,
    total: b.total,
    totalLabel: 'Total Due',
  };
  return renderPdf(doc);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: new URL(`bulk-upload-${name}.png`, SCREENSHOTS).pathname, fullPage: !name.includes('dialog') });

async function choose(page: Page, combobox: Locator, option: string): Promise<void> {
  await combobox.click();
  await page.keyboard.type(option.slice(0, 10));
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}

/** Every notice title and message shown from now on, as the page's notices region shows them (a notice may be brief). */
async function recordNotices(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __notices: string[] }).__notices = seen;
    const take = () => {
      for (const n of document.querySelectorAll('[role="status"], [role="alert"]')) {
        const t = (n.textContent ?? '').trim();
        if (t && !seen.includes(t)) seen.push(t);
      }
    };
    new MutationObserver(take).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __notices: string[] }).__notices);
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [session, browser] = await Promise.all([startPartiesWebSession({ transactions: 5, documents: true }), launchBrowser()]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await session?.system.stop();
});

describe('bulk upload of bills', () => {
  it(
    'uploads two bills, follows the import notices, reviews the drafts with what was read and creates the bills',
    async () => {
      const vendors = new Map<string, string>();
      for (const b of BILLS) vendors.set(b.vendor, (await session.api('POST', '/vendors', { name: b.vendor })).body.vendor.id as string);
      const files = await Promise.all(BILLS.map(async (b, i) => ({ name: b.file, mimeType: 'application/pdf', buffer: await billPdf(i, b) })));

      await inFreshPage(browser, session.system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        await page.goto(`${session.system.webUrl}/accounting?tab=bills`);
        await page.getByRole('button', { name: 'Upload bills' }).click();
        const dialog = dialogNamed(page, 'Upload bills');
        await expectInsideWindow(page, dialog, 'the upload dialog');
        const notices = await recordNotices(page);
        await dialog.getByTestId('drop-zone-input').setInputFiles(files);
        const rows = dialog.getByRole('list', { name: 'Bill files: files' });
        for (const b of BILLS) await expect.poll(() => rows.getByRole('listitem', { name: b.file }).innerText(), { timeout: STEP_MS }).toContain('Uploaded');
        // (The notices lie outside the modal dialog, hidden from assistive technology while it is open: read what was shown.)
        await expect.poll(async () => (await notices()).some((t) => t.includes('Bill uploaded successfully.')), { timeout: STEP_MS }).toBe(true);
        await shot(page, 'desktop-upload-dialog');
        await dialog.getByRole('button', { name: 'Close' }).click();

        // The job reads both files; the notices say so, then offer the review.
        const complete = page.getByRole('status').filter({ hasText: 'Import Complete!' });
        await expect.poll(() => complete.count(), { timeout: JOB_MS }).toBe(1);
        expect(await complete.innerText()).toContain('Click here to review and save them');
        const said = await notices();
        expect(
          said.some((t) => t.includes('Importing') && t.includes('Please wait while we finish uploading')),
          `notices seen: ${JSON.stringify(said)}`,
        ).toBe(true);
        const jobs = (
          (await session.api('GET', '/jobs')).body.jobs as {
            type: string;
            status: string;
            data: { transactionPushed: number; totalTransactions: number; uploadType: string };
          }[]
        ).filter((j) => j.type === 'bulk upload');
        expect(jobs.map((j) => [j.status, j.data.uploadType, j.data.transactionPushed, j.data.totalTransactions])).toEqual([['completed', 'bill', 2, 2]]);
        await shot(page, 'desktop-import-complete');
        await complete.getByRole('button', { name: 'View' }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('mode')).toBe('bulk-draft');
        expect(new URL(page.url()).searchParams.get('tab')).toBe('bills');

        // The review: one draft per file with what was read; the vendor of that name is picked already.
        const table = page.getByRole('table', { name: 'bill drafts' });
        await expect.poll(() => table.locator('tbody tr').count(), { timeout: STEP_MS }).toBe(2);
        const rowOf = (b: (typeof BILLS)[number]) => table.locator('tbody tr').filter({ hasText: b.number });
        await expect
          .poll(
            async () => {
              const drafts = (await session.api('GET', '/drafts?entityType=bill')).body.data as { metaData: { vendorId?: string; invoiceCode?: string } }[];
              return drafts.map((d) => [d.metaData.invoiceCode, d.metaData.vendorId]).sort();
            },
            { timeout: STEP_MS },
          )
          .toEqual(BILLS.map((b) => [b.number, vendors.get(b.vendor)]).sort());
        for (const b of BILLS) {
          await expect.poll(() => rowOf(b).innerText(), { timeout: STEP_MS }).toContain(b.vendor);
          expect(await rowOf(b).innerText()).toContain(`$${b.total.toFixed(2)}`);
        }
        await expectNoHorizontalScroll(page, 'the review at 1440 px');
        await shot(page, 'desktop-review');

        // Each draft needs a category for its line; then both are created.
        for (const b of BILLS) {
          await rowOf(b).getByRole('button', { name: b.vendor }).click();
          const editor = dialogNamed(page, 'Edit bill draft');
          await expectInsideWindow(page, editor, 'the draft editor');
          expect(await editor.getByRole('textbox', { name: 'Line 1 service' }).inputValue()).toBe(b.line);
          await choose(page, editor.getByRole('combobox', { name: 'Line 1 category' }), 'Office Supplies');
          await editor.getByRole('button', { name: 'Save draft' }).click();
          await expect.poll(() => rowOf(b).innerText(), { timeout: STEP_MS }).toContain('Ready');
        }
        await page.getByRole('checkbox', { name: 'Select all drafts' }).check();
        await page.getByRole('button', { name: 'Create bills' }).click();
        await expect.poll(() => page.getByText('2 bills created', { exact: true }).count(), { timeout: STEP_MS }).toBeGreaterThan(0);
        await expect.poll(() => page.getByText('No bill drafts', { exact: true }).count(), { timeout: STEP_MS }).toBe(1);
        const bills = (await session.api('GET', '/accounting/bills?take=100')).body.data as {
          invoiceCode: string;
          vendor: { name: string };
          totalAmount: number;
          billDate: string;
          dueDate: string;
        }[];
        expect(bills.map((x) => [x.invoiceCode, x.vendor.name, x.totalAmount, x.billDate, x.dueDate]).sort()).toEqual(
          BILLS.map((b) => [b.number, b.vendor, b.total, b.date, b.due]).sort(),
        );
        await shot(page, 'desktop-created');
      });
    },
    TEST_MS * 3,
  );

  it(
    'uploads an invoice from the invoices tab: its notices end in the invoices review with the customer picked',
    async () => {
      const customer = (await session.api('POST', '/customers', { name: 'Delta Freight LLC' })).body.customer as { id: string; name: string };
      const base = corpusDoc(37, 2, ['invoice']);
      const invoice: CorpusDoc = {
        ...base,
        kind: 'invoice',
        layout: 'invoice-classic',
        merchant: 'Analytical Co',
        customer: 'Delta Freight LLC',
        date: '2026-03-09',
        dueDate: '2026-04-08',
        dateFormat: 'iso',
        invoiceNumber: 'INV-7001',
        currency: 'USD',
        lines: [{ description: 'Consulting', quantity: 2, rate: 150, amount: 300 }],
        subtotal: 300,
        tax: 0,
        total: 300,
        totalLabel: 'Total',
      };
      const file = { name: 'delta-invoice.pdf', mimeType: 'application/pdf', buffer: await renderPdf(invoice) };
      await inFreshPage(browser, session.system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        await page.goto(`${session.system.webUrl}/accounting?tab=invoices`);
        await page.getByRole('button', { name: 'Upload invoices' }).click();
        const dialog = dialogNamed(page, 'Upload invoices');
        const notices = await recordNotices(page);
        await dialog.getByTestId('drop-zone-input').setInputFiles([file]);
        await expect.poll(() => dialog.getByRole('listitem', { name: file.name }).innerText(), { timeout: STEP_MS }).toContain('Uploaded');
        await expect.poll(async () => (await notices()).some((t) => t.includes('Invoice uploaded successfully.')), { timeout: STEP_MS }).toBe(true);
        await dialog.getByRole('button', { name: 'Close' }).click();
        const complete = page.getByRole('status').filter({ hasText: 'Import Complete!' });
        await expect.poll(() => complete.count(), { timeout: JOB_MS }).toBe(1);
        await complete.getByRole('button', { name: 'View' }).click();
        await expect.poll(() => `${new URL(page.url()).searchParams.get('tab')} ${new URL(page.url()).searchParams.get('mode')}`).toBe('invoices bulk-draft');
        const table = page.getByRole('table', { name: 'invoice drafts' });
        await expect.poll(() => table.locator('tbody tr').count(), { timeout: STEP_MS }).toBe(1);
        await expect
          .poll(
            async () =>
              ((await session.api('GET', '/drafts?entityType=invoice')).body.data as { metaData: { customerId?: string; referenceNo?: string } }[]).map((d) => [
                d.metaData.referenceNo,
                d.metaData.customerId,
              ]),
            { timeout: STEP_MS },
          )
          .toEqual([['INV-7001', customer.id]]);
        await expect.poll(() => table.locator('tbody tr').innerText(), { timeout: STEP_MS }).toContain('Delta Freight LLC');
        expect(await table.locator('tbody tr').innerText()).toContain('$300.00');
        await shot(page, 'desktop-invoice-review');
      });
    },
    TEST_MS * 2,
  );

  it(
    'at 390 px: the review keeps long names inside the window and "Create bills" readable while disabled',
    async () => {
      const office = ((await session.api('GET', '/categories')).body.categories as { id: string; name: string }[]).find(
        (c) => c.name === 'Office Supplies',
      )!.id;
      const long = 'Bright Spark Electric and Lighting Contractors of the Greater Riverside Area';
      await session.api('POST', '/drafts', {
        entityType: 'bill',
        draftType: 'upload',
        metaData: {
          billDate: '2026-04-01',
          invoiceCode: 'BSE-1',
          extracted: { billerName: long },
          lineItems: [{ serviceName: 'Wiring', categoryId: office, amount: 120 }],
        },
      });
      await inFreshPage(browser, session.system.webUrl, async (page) => {
        await session.signIn(page, PHONE);
        await page.goto(`${session.system.webUrl}/accounting?tab=bills&mode=bulk-draft`);
        const table = page.getByRole('table', { name: 'bill drafts' });
        await expect.poll(() => table.locator('tbody tr').count(), { timeout: STEP_MS }).toBe(1);
        const box = await boxOf(table, 'the drafts table');
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
        // The long name wraps inside its cell: the whole of it is on screen, none of it cut.
        const name = table.getByRole('button', { name: long });
        expect(await name.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
        expect(await name.innerText()).toBe(long);
        const nameBox = await boxOf(name, 'the long name');
        expect(nameBox.x + nameBox.width).toBeLessThanOrEqual(PHONE.width);
        // Nothing selected: "Create bills" is disabled.
        const create = page.getByRole('button', { name: 'Create bills' });
        expect(await create.isDisabled()).toBe(true);
        // Its text against its background, as seen (its opacity blends both with the page): readable, at least 4.5:1.
        const contrast = await create.evaluate((e) => {
          // Computed colours may be oklch(): a canvas pixel turns any CSS colour into sRGB.
          const ctx = document.createElement('canvas').getContext('2d')!;
          const rgb = (c: string) => {
            ctx.clearRect(0, 0, 1, 1);
            ctx.fillStyle = c;
            ctx.fillRect(0, 0, 1, 1);
            return [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3);
          };
          const s = getComputedStyle(e);
          const alpha = Number(s.opacity);
          const page = rgb(getComputedStyle(document.body).backgroundColor);
          const seen = (c: number[]) => c.slice(0, 3).map((v, i) => v * alpha + (page[i] ?? 255) * (1 - alpha));
          const lum = (c: number[]) => {
            const [r, g, b] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
            return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
          };
          const [a, b] = [lum(seen(rgb(s.color))), lum(seen(rgb(s.backgroundColor)))].sort((x, y) => y - x);
          return (a! + 0.05) / (b! + 0.05);
        });
        expect(contrast, `the disabled "Create bills" text against its background: ${contrast.toFixed(2)}:1`).toBeGreaterThanOrEqual(4.5);
        await expectNoHorizontalScroll(page, 'the review at 390 px');
        await shot(page, 'phone-review');
      });
    },
    TEST_MS,
  );
});
