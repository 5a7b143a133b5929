// The bulk-draft review (issue #19 item 5; spec §2 mode=bulk-draft of the bills tab, §5 first errors, §8 conversion
// messages) in real Chromium against the real stack (gateway, identity, banking, ledger, parties, documents): three bill
// drafts saved through POST /drafts (one ready, one without a vendor, one without lines); the bills tab says they wait,
// the review lists each with its first error; the one without a vendor is fixed in the editor; all three selected and
// created ('2 bills created, 1 failed.'), the failed one deleted. Layout: the table inside the page, the editor dialog
// inside the window, no sideways scroll at 390 px. Screenshots in test-results/screenshots/drafts-review-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, startSystem, type System } from '../support/system.js';
import {
  boxOf,
  dialogNamed,
  expectInsideWindow,
  expectNoHorizontalScroll,
  inFreshPage,
  launchBrowser,
  logInThroughForm,
  notice,
  STEP_MS,
  TEST_MS,
  waitForPath,
} from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let system: System & { webUrl: string };
let browser: Browser;
let email: string;
let token: string;
let workspace: string;
let categories: Record<string, string>;

const api = (method: string, path: string, body?: unknown) => system.api(method, path, { token, workspace, body });
const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`drafts-review-${name}.png`, SCREENSHOTS).pathname, fullPage: true });

async function draft(metaData: Record<string, unknown>): Promise<string> {
  const r = await api('POST', '/drafts', { entityType: 'bill', draftType: 'upload', metaData });
  if (r.status !== 201) throw new Error(`POST /drafts answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.draft.id as string;
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const [started, launched] = await Promise.all([
    startSystem({
      web: true,
      banking: true,
      ledger: true,
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
  if (started.webUrl === null) throw new Error('startSystem served no web app');
  system = { ...started, webUrl: started.webUrl };
  const user = await signedUpUser(system);
  email = user.email;
  token = user.token;
  workspace = user.user.workspace.id;
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  // The chart is seeded once onboarding's event reaches the ledger.
  for (let i = 0; i < 100 && !categories?.['Office Supplies']; i++) {
    const c = await api('GET', '/categories');
    categories = Object.fromEntries(((c.body?.categories ?? []) as { id: string; name: string }[]).map((x) => [x.name, x.id]));
    if (!categories['Office Supplies']) await new Promise((r) => setTimeout(r, 200));
  }
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

async function signIn(page: Page, viewport: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(viewport);
  await logInThroughForm(page, email, PASSWORD);
  await waitForPath(page, '/dashboard');
}

describe('the bulk-draft review', () => {
  it(
    'lists drafts with their first error, fixes one in the editor, creates the valid ones with the §8 message, deletes the rest',
    async () => {
      const vendor = (await api('POST', '/vendors', { name: 'Paper Mill' })).body.vendor as { id: string; name: string };
      await api('POST', '/vendors', { name: 'Corner Cafe' });
      const office = categories['Office Supplies'];
      expect(office, 'the chart has Office Supplies').toBeDefined();
      await draft({ billDate: '2026-03-10', vendorId: vendor.id, invoiceCode: 'PM-1', lineItems: [{ serviceName: 'Toner', categoryId: office, amount: 40 }] });
      // The name read fits no vendor well enough to be picked for the reviewer (decision 0029): it is picked by hand.
      await draft({
        billDate: '2026-03-11',
        invoiceCode: 'CC-7',
        extracted: { merchantName: 'Corner Coffee Shop', total: 18.5 },
        lineItems: [{ serviceName: 'Coffee', categoryId: office, amount: 18.5 }],
      });
      await draft({ billDate: '2026-03-12', invoiceCode: 'EMPTY-1', vendorId: vendor.id, lineItems: [] });

      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page, DESKTOP);
        await page.goto(`${system.webUrl}/accounting?tab=bills`);
        await expect.poll(() => page.getByRole('status').filter({ hasText: '3 bill drafts waiting for review' }).count(), { timeout: STEP_MS }).toBe(1);
        await page.getByRole('button', { name: 'Review drafts' }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('mode')).toBe('bulk-draft');
        const table = page.getByRole('table', { name: 'bill drafts' });
        await expect.poll(() => table.locator('tbody tr').count(), { timeout: STEP_MS }).toBe(3);
        const rowOf = (text: string) => table.locator('tbody tr').filter({ hasText: text });
        expect(await rowOf('PM-1').innerText()).toContain('Ready');
        expect(await rowOf('CC-7').innerText()).toContain('Vendor is required');
        expect(await rowOf('EMPTY-1').innerText()).toContain('At least one line item is required');
        const box = await boxOf(table, 'the drafts table');
        expect(box.x + box.width).toBeLessThanOrEqual(DESKTOP.width);
        await expectNoHorizontalScroll(page, 'the review at 1440 px');
        await shot(page, 'desktop-list');

        // The draft without a vendor: the merchant read from the file names it; the editor shows its first error.
        await rowOf('CC-7').getByRole('button', { name: 'Corner Coffee Shop' }).click();
        const dialog = dialogNamed(page, 'Edit bill draft');
        await expectInsideWindow(page, dialog, 'the draft editor');
        await expect.poll(() => dialog.getByRole('alert').innerText()).toBe('Vendor is required');
        const picker = dialog.getByRole('combobox', { name: /Vendor/ });
        await picker.click();
        await page.keyboard.type('Corner');
        await page.getByRole('listbox').getByRole('option', { name: 'Corner Cafe', exact: true }).click();
        const listbox = await page.getByRole('listbox').count();
        expect(listbox).toBe(0);
        await shot(page, 'desktop-editor');
        await dialog.getByRole('button', { name: 'Save draft' }).click();
        await expect.poll(() => notice(page, 'status', 'Draft saved').count(), { timeout: STEP_MS }).toBeGreaterThan(0);
        await expect.poll(() => rowOf('CC-7').innerText(), { timeout: STEP_MS }).toContain('Ready');

        await page.getByRole('checkbox', { name: 'Select all drafts' }).check();
        await expect.poll(() => page.getByRole('toolbar', { name: 'Draft actions' }).innerText()).toContain('3 selected');
        await page.getByRole('button', { name: 'Create bills' }).click();
        await expect.poll(() => page.getByText('2 bills created, 1 failed.', { exact: true }).count(), { timeout: STEP_MS }).toBeGreaterThan(0);
        await expect.poll(() => table.locator('tbody tr').count(), { timeout: STEP_MS }).toBe(1);
        expect(await rowOf('EMPTY-1').innerText()).toContain('At least one line item is required');
        await shot(page, 'desktop-after-create');
        const bills = (await api('GET', '/accounting/bills?take=100')).body.data as { invoiceCode: string; vendor: { name: string }; totalAmount: number }[];
        expect(bills.map((b) => [b.invoiceCode, b.vendor.name, b.totalAmount]).sort()).toEqual([
          ['CC-7', 'Corner Cafe', 18.5],
          ['PM-1', 'Paper Mill', 40],
        ]);

        // The failed one stays selected; delete it.
        await expect.poll(() => page.getByRole('toolbar', { name: 'Draft actions' }).innerText()).toContain('1 selected');
        await page.getByRole('button', { name: 'Delete selected' }).click();
        await expect.poll(() => page.getByText('1 draft deleted', { exact: true }).count(), { timeout: STEP_MS }).toBeGreaterThan(0);
        await expect.poll(() => page.getByText('No bill drafts', { exact: true }).count(), { timeout: STEP_MS }).toBe(1);
      });
    },
    TEST_MS * 2,
  );

  it(
    'at 390 px: the table stays inside the page, the editor inside the window, nothing scrolls sideways',
    async () => {
      const office = categories['Office Supplies'];
      await draft({
        billDate: '2026-04-01',
        invoiceCode: 'PHONE-1',
        extracted: { merchantName: 'A merchant with a rather long name from a photographed receipt' },
        lineItems: [{ serviceName: 'Paper', categoryId: office, amount: 12 }],
      });
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page, PHONE);
        await page.goto(`${system.webUrl}/accounting?tab=bills&mode=bulk-draft`);
        const table = page.getByRole('table', { name: 'bill drafts' });
        await expect.poll(() => table.locator('tbody tr').count(), { timeout: STEP_MS }).toBe(1);
        const box = await boxOf(table, 'the drafts table');
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
        await expectNoHorizontalScroll(page, 'the review at 390 px');
        await shot(page, 'phone-list');
        await table.getByRole('button', { name: /A merchant with/ }).click();
        const dialog = dialogNamed(page, 'Edit bill draft');
        await expectInsideWindow(page, dialog, 'the draft editor at 390 px', { vertically: false });
        await expectNoHorizontalScroll(page, 'the editor at 390 px');
        await shot(page, 'phone-editor');
      });
    },
    TEST_MS,
  );
});
