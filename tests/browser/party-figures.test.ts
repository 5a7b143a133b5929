// The vendors' bill figures and the customers' invoice figures on the screens (issue #17; spec §3) in real Chromium
// against the real stack (gateway, identity, ledger, parties, documents): bills and invoices made through the API,
// one overdue, one due later, one paid off by a part-voided history; the vendor's and the customer's view dialogs show
// count · amount, due count · amount and the overdue amount, the lists show the counts and the overdue column; the
// dialogs stay inside the window and nothing scrolls sideways at 390×844. Screenshots in
// test-results/screenshots/party-figures-*.png.
import { mkdirSync } from 'node:fs';
import { expectEventually } from '@ledgerline/platform/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, startSystem, type System } from '../support/system.js';
import { boxOf, inFreshPage, launchBrowser, logInThroughForm, TEST_MS, visible, waitForPath } from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const PAST = '2026-02-04';
const FUTURE = '2099-01-01';

let system: System & { webUrl: string };
let browser: Browser;
let email: string;
let token: string;
let workspace: string;
let vendorId: string;
let customerId: string;

const api = (method: string, path: string, body?: unknown) => system.api(method, path, { token, workspace, body });

async function created(path: string, body: unknown): Promise<{ id: string }> {
  const r = await api('POST', path, body);
  if (r.status !== 201) throw new Error(`POST ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.vendor ?? r.body.customer ?? r.body.bill ?? r.body.invoice;
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const [started, launched] = await Promise.all([
    startSystem({
      web: true,
      ledger: true,
      parties: true,
      documents: true,
      gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000', SERVICE_TIMEOUT_MS: '15000' },
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
  const categories = (await api('GET', '/categories')).body.categories as { id: string; name: string }[];
  const cat = (name: string) => categories.find((c) => c.name === name)!.id;

  vendorId = (await created('/vendors', { name: 'Paper Mill' })).id;
  const line = (amount: number) => [{ serviceName: 'Paper', categoryId: cat('Office Supplies'), amount }];
  await created('/accounting/bill/v2', { vendorId, billDate: '2026-01-05', dueDate: PAST, lineItems: line(1200) });
  await created('/accounting/bill/v2', { vendorId, billDate: '2026-03-01', dueDate: FUTURE, lineItems: line(300.5) });
  const voided = await created('/accounting/bill/v2', { vendorId, billDate: '2026-01-06', dueDate: PAST, lineItems: line(99) });
  if ((await api('POST', `/accounting/bill/void/${voided.id}`)).status !== 200) throw new Error('void failed');

  customerId = (await created('/customers', { name: 'Globex' })).id;
  const income = categories.find((c) => c.name === 'Consulting Revenue') ?? categories.find((c) => c.name === 'Sales')!;
  const sale = (amount: number) => [{ serviceName: 'Consulting', categoryId: income.id, quantity: 1, rate: amount, amount }];
  await created('/accounting/invoice/v2', { customerId, invoiceDate: '2026-01-05', dueDate: PAST, lineItems: sale(2500) });
  await created('/accounting/invoice/v2', { customerId, invoiceDate: '2026-03-05', dueDate: FUTURE, lineItems: sale(400) });

  // The parties service's read model follows the documents a moment later.
  await expectEventually(
    async () => {
      expect((await api('GET', `/vendors/${vendorId}`)).body).toMatchObject({ billCount: 2, overdueAmount: 1200 });
      expect((await api('GET', `/customers/${customerId}`)).body).toMatchObject({ invoiceCount: 2, overduePaymentAmount: 2500 });
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

const dialogNamed = (page: Page, name: string): Locator => page.getByRole('dialog', { name, exact: true }).locator('[data-dialog-panel]');
/** The value beside a label of a view dialog's terms. */
const term = (view: Locator, label: string): Locator =>
  view
    .locator('dt')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');

async function expectFits(page: Page, dialog: Locator, where: string): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, `${where}: the page is ${scroll}px wide in a ${client}px window`).toBeLessThanOrEqual(client);
  const box = await boxOf(dialog, `${where}: the dialog`);
  const viewport = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(-0.5);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
}

it(
  'the vendor view shows its bills, due bills and overdue amount; the list its bill count',
  async () => {
    await inFreshPage(browser, system.webUrl, async (page) => {
      await page.setViewportSize(DESKTOP);
      await logInThroughForm(page, email, PASSWORD);
      await page.goto('/transactions?tab=vendors');
      await waitForPath(page, '/transactions');
      const table = await visible(page.getByRole('table', { name: 'Vendors' }));
      const row = table.locator('tbody tr').filter({ hasText: 'Paper Mill' });
      // Bills column: the live bills (the voided one counts nowhere).
      await expect.poll(async () => (await row.locator('td').nth(5).textContent())?.trim()).toBe('2');
      await page.goto(`/transactions?tab=vendors&vendor=${vendorId}`);
      const view = await visible(dialogNamed(page, 'Paper Mill'));
      await expect.poll(async () => (await term(view, 'Bills').textContent())?.trim()).toBe('2 · $1,500.50');
      expect((await term(view, 'Due bills').textContent())?.trim()).toBe('2 · $1,500.50');
      expect((await term(view, 'Overdue').textContent())?.trim()).toBe('$1,200.00');
      await expectFits(page, view, 'vendor at 1440');
      await page.screenshot({ path: new URL('party-figures-vendor-1440.png', SCREENSHOTS).pathname });
      await page.setViewportSize(PHONE);
      await visible(term(view, 'Overdue'));
      await expectFits(page, view, 'vendor at 390');
      await page.screenshot({ path: new URL('party-figures-vendor-390.png', SCREENSHOTS).pathname });
    });
  },
  TEST_MS,
);

it(
  'the customer view shows its invoices, due invoices and overdue amount; the list its overdue column',
  async () => {
    await inFreshPage(browser, system.webUrl, async (page) => {
      await page.setViewportSize(DESKTOP);
      await logInThroughForm(page, email, PASSWORD);
      await page.goto('/revenue?tab=customers');
      await waitForPath(page, '/revenue');
      const table = await visible(page.getByRole('table', { name: 'Customers' }));
      await visible(table.locator('tbody tr').filter({ hasText: 'Globex' }).getByText('$2,500.00', { exact: true }));
      await page.goto(`/revenue?tab=customers&customer=${customerId}`);
      const view = await visible(dialogNamed(page, 'Globex'));
      await expect.poll(async () => (await term(view, 'Invoices').textContent())?.trim()).toBe('2 · $2,900.00');
      expect((await term(view, 'Due invoices').textContent())?.trim()).toBe('2 · $2,900.00');
      expect((await term(view, 'Overdue').textContent())?.trim()).toBe('$2,500.00');
      await expectFits(page, view, 'customer at 1440');
      await page.screenshot({ path: new URL('party-figures-customer-1440.png', SCREENSHOTS).pathname });
      await page.setViewportSize(PHONE);
      await visible(term(view, 'Overdue'));
      await expectFits(page, view, 'customer at 390');
      await page.screenshot({ path: new URL('party-figures-customer-390.png', SCREENSHOTS).pathname });
    });
  },
  TEST_MS,
);
