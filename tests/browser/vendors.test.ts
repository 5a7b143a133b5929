// Transactions → Vendors and Revenue → Customers (issue #17 item 8) in real Chromium against the real stack (gateway,
// identity, banking with the Plaid sandbox, ledger, parties): the vendor list with search, the Added filter and the
// spec's infinite scroll (20 a page; the next page once the rest is within 2.2 viewports), create and edit with every
// spec §3 field, delete (a vendor with transactions is made inactive, the server's message shown), merge two vendors,
// the CSV download, the transaction drawer's link to its vendor, the customers tab's create / edit / delete, a
// Viewer's disabled controls. Layout: 15+ rows at 1440×900, no sideways scroll at 390×844, dialogs inside the window.
// Screenshots in test-results/screenshots/vendors-*.png.
import { mkdirSync } from 'node:fs';
import { expectEventually } from '@ledgerline/platform/testing';
import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, uniqueEmail } from '../support/system.js';
import {
  boxOf,
  dialogNamed,
  expectInsideWindow,
  expectNoHorizontalScroll,
  field,
  inFreshPage,
  launchBrowser,
  logInThroughForm,
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
/** Enough vendors for several pages of 20: the first screen loads only some of them. */
const MANY = 150;

let session: PartiesWebSession;
let system: PartiesWebSession['system'];
let browser: Browser;

/** A wait on a busy machine: as long as a step may take. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: STEP_MS });

const api = (method: string, path: string, body?: unknown) => session.api(method, path, body);

async function createVendor(body: Record<string, unknown>): Promise<{ id: string; name: string }> {
  const r = await api('POST', '/vendors', body);
  if (r.status !== 201) throw new Error(`POST /vendors answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.vendor;
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [session, browser] = await Promise.all([startPartiesWebSession({ transactions: 12 }), launchBrowser()]);
  system = session.system;
  // The bank's merchants become vendors (not added) as the ledger books them.
  await expectEventually(
    async () => {
      const n = (await api('GET', '/vendors?filter=not-added')).body?.meta?.itemCount ?? 0;
      if (n === 0) throw new Error('no bank merchant became a vendor yet');
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  for (let i = 0; i < MANY; i += 5) {
    await Promise.all(Array.from({ length: Math.min(5, MANY - i) }, (_, k) => createVendor({ name: `Supplier ${String(i + k + 1).padStart(3, '0')}` })));
  }
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

async function openVendors(page: Page, query = ''): Promise<Locator> {
  await page.goto(`/transactions?tab=vendors${query}`);
  await waitForPath(page, '/transactions');
  return visible(page.getByRole('table', { name: 'Vendors' }));
}

const nameButtons = (table: Locator) => table.locator('tbody tr td:first-child button');

async function downloadFrom(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), text: (await readFile(await download.path())).toString('utf8') };
}

/** The pages of GET /vendors the page asked for (the list's own calls, not the rule editor's). */
function vendorPagesAsked(page: Page): number[] {
  const asked: number[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/vendors' && request.method() === 'GET' && !url.searchParams.has('search')) asked.push(Number(url.searchParams.get('page')));
  });
  return asked;
}

describe('Transactions → Vendors', () => {
  it(
    'lists 20 a page and fetches the next page only once the rest is within 2.2 viewports; 15+ rows at 1440×900',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        const asked = vendorPagesAsked(page);
        const table = await openVendors(page);
        // The first pages do not fill 3.2 viewports, so more come without a scroll, then it stops (the rule).
        await expect.poll(() => asked.length, { timeout: STEP_MS }).toBeGreaterThanOrEqual(2);
        await page.waitForTimeout(1_000);
        const settled = Math.max(...asked);
        const total = MANY + (await api('GET', '/vendors?filter=not-added')).body.meta.itemCount;
        expect(settled * 20, 'the first screen did not load every vendor (the test needs more pages)').toBeLessThan(total);
        await poll(() => nameButtons(table).count()).toBe(settled * 20);
        expect(asked).toEqual(Array.from({ length: settled }, (_, i) => i + 1));
        const remaining = await page.evaluate(() => document.documentElement.scrollHeight - window.scrollY - window.innerHeight);
        expect(remaining, 'it stopped while the rest was still within 2.2 viewports').toBeGreaterThan(2.2 * DESKTOP.height);

        // 15+ whole rows in the window, dense.
        const boxes = await table
          .locator('tbody tr')
          .evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect()).map((b) => ({ top: b.top, bottom: b.bottom, height: b.height })));
        expect(boxes.filter((b) => b.top >= 0 && b.bottom <= DESKTOP.height).length).toBeGreaterThanOrEqual(15);
        expect(Math.max(...boxes.map((b) => b.height))).toBeLessThanOrEqual(40);
        await expectNoHorizontalScroll(page, 'vendors at 1440');
        await page.screenshot({ path: new URL('vendors-list-1440.png', SCREENSHOTS).pathname });

        // Scroll towards the end: the next page comes once the rest is within 2.2 viewports.
        await page.evaluate((vh) => window.scrollTo(0, document.documentElement.scrollHeight - vh - 2.2 * vh + 10), DESKTOP.height);
        await expect.poll(() => Math.max(...asked), { timeout: STEP_MS }).toBe(settled + 1);
        await poll(() => nameButtons(table).count()).toBeGreaterThanOrEqual((settled + 1) * 20);
      });
    },
    TEST_MS,
  );

  it(
    'searches by name and filters Added / Not added, in the URL',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        const table = await openVendors(page);
        await page.getByRole('searchbox', { name: 'Search vendors' }).fill('Supplier 14');
        await poll(() => new URL(page.url()).searchParams.get('search')).toBe('Supplier 14');
        await poll(async () => (await nameButtons(table).allTextContents()).sort()).toEqual([
          'Supplier 140',
          'Supplier 141',
          'Supplier 142',
          'Supplier 143',
          'Supplier 144',
          'Supplier 145',
          'Supplier 146',
          'Supplier 147',
          'Supplier 148',
          'Supplier 149',
        ]);
        await page.getByRole('searchbox', { name: 'Search vendors' }).fill('');

        const notAdded = (await api('GET', '/vendors?filter=not-added&take=100')).body.data.map((v: { name: string }) => v.name).sort();
        await page.getByRole('button', { name: /Added/ }).first().click();
        await page.getByRole('option', { name: 'Not added', exact: true }).click();
        await poll(() => new URL(page.url()).searchParams.get('filter')).toBe('not-added');
        await poll(async () => (await nameButtons(table).allTextContents()).sort()).toEqual(notAdded);
        await visible(table.getByText('Not added', { exact: true }).first());
        // A reload keeps the filter.
        await page.reload();
        await poll(async () => (await nameButtons(page.getByRole('table', { name: 'Vendors' })).allTextContents()).sort()).toEqual(notAdded);
      });
    },
    TEST_MS,
  );

  it(
    'creates a vendor with every field, edits it, and deletes one (with transactions: made inactive, the message shown)',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        await openVendors(page);
        await page.getByRole('button', { name: 'New vendor' }).click();
        const dialog = await visible(dialogNamed(page, 'New vendor'));
        await expectInsideWindow(page, dialog, 'the new-vendor dialog');
        await dialog.getByRole('button', { name: 'Create vendor' }).click();
        await visible(dialog.getByText('Name is required'));
        await field(page, 'Name').fill('Blue Bottle Coffee');
        await field(page, 'Email').fill('AP@BlueBottle.com');
        await dialog.getByRole('textbox', { name: 'Description' }).fill('Office coffee');
        await dialog.getByRole('textbox', { name: 'Address' }).fill('300 Webster St, Oakland CA');
        await field(page, 'Bank details').fill('Chase ••1234');
        await field(page, 'EIN').fill('12345');
        await dialog.getByRole('checkbox', { name: 'Eligible for 1099' }).check();
        await dialog.getByRole('button', { name: 'Create vendor' }).click();
        await visible(dialog.getByText('EIN must be 9 digits (XX-XXXXXXX)'));
        await field(page, 'EIN').fill('123456789');
        // The bank's merchant of that name is a vendor already: the server's message is shown and nothing is lost.
        await dialog.getByRole('button', { name: 'Create vendor' }).click();
        await visible(dialog.getByText('A vendor with this name already exists', { exact: true }));
        await field(page, 'Name').fill('Blue Bottle Wholesale');
        await dialog.getByRole('button', { name: 'Create vendor' }).click();
        await visible(notice(page, 'status', 'Vendor created'));
        const view = await visible(dialogNamed(page, 'Blue Bottle Wholesale'));
        const id = new URL(page.url()).searchParams.get('vendor');
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        for (const text of ['ap@bluebottle.com', 'Office coffee', '300 Webster St, Oakland CA', 'Chase ••1234', '12-3456789'])
          await visible(view.getByText(text, { exact: true }));
        await page.screenshot({ path: new URL('vendors-view-1440.png', SCREENSHOTS).pathname });

        // A link opens it again.
        await page.goto(`/transactions?tab=vendors&vendor=${id}`);
        await visible(dialogNamed(page, 'Blue Bottle Wholesale'));
        await page.getByRole('button', { name: 'Edit' }).click();
        await poll(() => new URL(page.url()).searchParams.get('mode')).toBe('edit');
        const edit = await visible(dialogNamed(page, 'Edit Blue Bottle Wholesale'));
        await field(page, 'Email').fill('billing@bluebottle.com');
        await edit.getByRole('checkbox', { name: 'Eligible for 1099' }).uncheck();
        await edit.getByRole('button', { name: 'Save vendor' }).click();
        const saved = await visible(dialogNamed(page, 'Blue Bottle Wholesale'));
        await visible(saved.getByText('billing@bluebottle.com', { exact: true }));
        const stored = (await api('GET', `/vendors/${id}`)).body;
        expect(stored).toMatchObject({
          email: { email: 'billing@bluebottle.com' },
          is1099Eligible: false,
          ein: '12-3456789',
          address: '300 Webster St, Oakland CA',
          isAdded: true,
        });

        // Deleting one without transactions deletes it.
        await saved.getByRole('button', { name: 'Delete' }).click();
        await saved.getByRole('button', { name: 'Delete vendor' }).click();
        await expect.poll(() => page.getByRole('dialog').count(), { timeout: STEP_MS }).toBe(0);
        expect((await api('GET', `/vendors/${id}`)).status).toBe(404);

        // One with transactions is made inactive instead; the server says so.
        const merchant = (await api('GET', '/vendors?filter=not-added')).body.data.find((v: { transactionCount: number }) => v.transactionCount > 0);
        await page.goto(`/transactions?tab=vendors&vendor=${merchant.id}`);
        const busy = await visible(dialogNamed(page, merchant.name));
        await busy.getByRole('button', { name: 'Delete' }).click();
        await busy.getByRole('button', { name: 'Delete vendor' }).click();
        const held = `This vendor has ${merchant.transactionCount} transaction${merchant.transactionCount === 1 ? '' : 's'}, so it was made inactive instead of deleted`;
        const alert = await visible(busy.getByRole('alert').filter({ hasText: held }));
        // The longer, counted message wraps inside the dialog: the whole alert is within the panel and the window.
        const [panel, box] = [await boxOf(busy, 'the vendor dialog'), await boxOf(alert, 'the delete message')];
        expect(box.x).toBeGreaterThanOrEqual(panel.x);
        expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width + 0.5);
        await expectInsideWindow(page, alert, 'the delete message');
        await page.screenshot({ path: new URL('vendors-delete-inactive-1440.png', SCREENSHOTS).pathname });
        expect((await api('GET', `/vendors/${merchant.id}`)).body.status).toBe('inactive');
      });
    },
    TEST_MS,
  );

  it(
    'merges two vendors after a confirmation; exports the list as CSV',
    async () => {
      const parent = await createVendor({ name: 'Merge Parent Roasters' });
      const child = await createVendor({ name: 'Merge Parent Roasters LLC' });
      const txns = (await api('GET', '/transactions/v2?take=2')).body.data as { id: string }[];
      expect((await api('PATCH', '/transactions', { transactions: txns.map((t) => ({ id: t.id, vendorId: child.id })) })).status).toBe(200);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        const table = await openVendors(page, '&search=Merge%20Parent');
        await poll(async () => (await nameButtons(table).allTextContents()).sort()).toEqual([parent.name, child.name]);
        await page.getByRole('button', { name: 'Merge vendors' }).click();
        const dialog = await visible(dialogNamed(page, 'Merge vendors'));
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await visible(dialog.getByText('Choose the vendor to keep'));
        await dialog.getByRole('button', { name: /Vendor to keep/ }).click();
        await page.getByRole('option', { name: parent.name, exact: true }).click();
        await expect.poll(() => dialog.getByRole('checkbox', { name: parent.name, exact: true }).count(), { timeout: STEP_MS }).toBe(0);
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await visible(dialog.getByText('Vendor merge needs a non-empty list of vendor ids'));
        await dialog.getByRole('checkbox', { name: child.name, exact: true }).check();
        await dialog.getByRole('button', { name: 'Continue' }).click();
        await visible(dialog.getByText(`Merge ${child.name} into ${parent.name}?`, { exact: false }));
        await expectInsideWindow(page, dialog, 'the merge confirmation');
        await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
        await visible(notice(page, 'status', `Vendors merged: 2 transactions moved to ${parent.name}`));
        await poll(async () => nameButtons(table).allTextContents()).toEqual([parent.name]);
        expect((await api('GET', `/vendors/${child.id}`)).status).toBe(404);
        expect((await api('GET', `/vendors/${parent.id}`)).body.transactionCount).toBe(2);

        // The drawer of a linked transaction links to its vendor.
        await page.goto(`/transactions?tab=all&txn=${txns[0]!.id}`);
        const link = await visible(page.getByRole('link', { name: parent.name }));
        await link.click();
        await visible(dialogNamed(page, parent.name));
        expect(new URL(page.url()).searchParams.get('tab')).toBe('vendors');
        expect(new URL(page.url()).searchParams.get('vendor')).toBe(parent.id);
        await page.keyboard.press('Escape');

        const file = await downloadFrom(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
        expect(file.name).toMatch(/^vendors_\d{4}-\d{2}-\d{2}\.csv$/);
        expect(file.text).toContain('Merge Parent Roasters');
      });
    },
    TEST_MS,
  );

  it(
    'at 390×844: no sideways scroll, secondary columns folded, dialogs fill the screen',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await session.signIn(page, PHONE);
        const table = await openVendors(page);
        await poll(() => nameButtons(table).count()).toBeGreaterThanOrEqual(20);
        await expectNoHorizontalScroll(page, 'vendors at 390');
        expect(await table.getByRole('columnheader', { name: 'Inflow' }).isVisible()).toBe(false);
        await visible(table.getByRole('columnheader', { name: 'Spending' }));
        await page.screenshot({ path: new URL('vendors-list-390.png', SCREENSHOTS).pathname });
        await page.getByRole('button', { name: 'New vendor' }).click();
        const dialog = await visible(dialogNamed(page, 'New vendor'));
        await expectInsideWindow(page, dialog, 'the new-vendor sheet');
        await expectNoHorizontalScroll(page, 'the new-vendor sheet at 390');
        await page.screenshot({ path: new URL('vendors-new-390.png', SCREENSHOTS).pathname });
      });
    },
    TEST_MS,
  );
});

describe('Transactions → Rules', () => {
  it(
    'opens the rule editor from the URL and checks the spec §5 condition before saving',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        await page.goto('/transactions?tab=rules');
        await waitForPath(page, '/transactions');
        await page.getByRole('button', { name: 'New rule' }).click();
        await poll(() => new URL(page.url()).searchParams.get('mode')).toBe('create');
        const dialog = await visible(dialogNamed(page, 'New rule'));
        await field(page, 'Rule name').fill('Coffee');
        await dialog.getByRole('button', { name: 'Save rule' }).click();
        await visible(dialog.getByText('Vendor is required'));
        await visible(dialog.getByText('Vendor rule needs at least one of a non-blank description value, an amount above 0, or a source'));
        await expectInsideWindow(page, dialog, 'the rule editor');
        await page.screenshot({ path: new URL('vendors-rule-editor-1440.png', SCREENSHOTS).pathname });
        await page.keyboard.press('Escape');
        await poll(() => new URL(page.url()).searchParams.get('mode')).toBe(null);
      });
    },
    TEST_MS,
  );
});

describe('Revenue → Customers', () => {
  it(
    'creates, views, edits and deletes a customer; CSV; fits at 1440 and 390',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await session.signIn(page, DESKTOP);
        await page.goto('/revenue?tab=customers');
        await waitForPath(page, '/revenue');
        await visible(page.getByRole('heading', { name: 'Revenue', level: 1 }));
        await visible(page.getByText('No customers'));
        await page.getByRole('button', { name: 'New customer' }).click();
        const dialog = await visible(dialogNamed(page, 'New customer'));
        await field(page, 'Name').fill('Acme Robotics');
        await field(page, 'Company name').fill('Acme Robotics Inc.');
        await field(page, 'Email').fill('ap@acme.test');
        await dialog.getByRole('textbox', { name: 'Description' }).fill('Annual plan');
        await dialog.getByRole('textbox', { name: 'Address' }).fill('1 Main St');
        await field(page, 'Bank details').fill('Wire');
        await dialog.getByRole('textbox', { name: /Other details/ }).fill('plan: Pro\nseats: 12');
        await dialog.getByRole('button', { name: 'Create customer' }).click();
        await visible(notice(page, 'status', 'Customer created'));
        const view = await visible(dialogNamed(page, 'Acme Robotics'));
        const id = new URL(page.url()).searchParams.get('customer');
        for (const text of ['Acme Robotics Inc.', 'ap@acme.test', 'Annual plan', '1 Main St', 'Wire', 'Pro', '12'])
          await visible(view.getByText(text, { exact: true }));
        await view.getByRole('button', { name: 'Edit' }).click();
        const edit = await visible(dialogNamed(page, 'Edit Acme Robotics'));
        await field(page, 'Company name').fill('Acme Robotics LLC');
        await edit.getByRole('button', { name: /Customer status/ }).click();
        await page.getByRole('option', { name: 'Inactive', exact: true }).click();
        await edit.getByRole('button', { name: 'Save customer' }).click();
        await visible(dialogNamed(page, 'Acme Robotics').getByText('Acme Robotics LLC', { exact: true }));
        expect((await api('GET', `/customers/${id}`)).body).toMatchObject({
          companyName: 'Acme Robotics LLC',
          status: 'inactive',
          metaData: { plan: 'Pro', seats: 12 },
        });
        await page.keyboard.press('Escape');
        const table = await visible(page.getByRole('table', { name: 'Customers' }));
        await visible(table.getByText('Inactive'));
        await page.screenshot({ path: new URL('vendors-customers-1440.png', SCREENSHOTS).pathname });

        const file = await downloadFrom(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
        expect(file.name).toMatch(/^customers_\d{4}-\d{2}-\d{2}\.csv$/);
        expect(file.text).toContain('Acme Robotics');

        await page.setViewportSize(PHONE);
        await expectNoHorizontalScroll(page, 'customers at 390');
        await page.screenshot({ path: new URL('vendors-customers-390.png', SCREENSHOTS).pathname });
        await page.setViewportSize(DESKTOP);

        await table.getByRole('button', { name: 'Acme Robotics' }).click();
        const open = await visible(dialogNamed(page, 'Acme Robotics'));
        await open.getByRole('button', { name: 'Delete' }).click();
        await open.getByRole('button', { name: 'Delete customer' }).click();
        await visible(page.getByText('No customers'));
        expect((await api('GET', `/customers/${id}`)).status).toBe(404);

        // One with a credit memo is made inactive instead: the dialog stays open and says why, counted.
        const held = (await api('POST', '/customers', { name: 'Held Customer' })).body.customer as { id: string };
        const sales = ((await api('GET', '/categories')).body.categories as { id: string; name: string }[]).find((x) => x.name === 'Sales')!.id;
        expect(
          (
            await api('POST', '/customers/credit-memo', {
              paymentDate: '2026-03-15',
              customerId: held.id,
              lineItems: [{ description: 'Discount', categoryId: sales, amount: 20 }],
            })
          ).status,
        ).toBe(201);
        await page.goto(`/revenue?tab=customers&customer=${held.id}`);
        const kept = await visible(dialogNamed(page, 'Held Customer'));
        await kept.getByRole('button', { name: 'Delete' }).click();
        await kept.getByRole('button', { name: 'Delete customer' }).click();
        const why = await visible(kept.getByRole('alert').filter({ hasText: 'This customer has 1 credit memo, so it was made inactive instead of deleted' }));
        await expectInsideWindow(page, why, 'the customer delete message');
        await page.screenshot({ path: new URL('vendors-customer-kept-1440.png', SCREENSHOTS).pathname });
        expect((await api('GET', `/customers/${held.id}`)).body.status).toBe('inactive');
        await page.keyboard.press('Escape');
        // The other revenue tabs stay as they were.
        await page.getByRole('tab', { name: 'Payouts' }).click();
        await visible(page.getByText('Payouts is not built yet'));
      });
    },
    TEST_MS,
  );
});

describe('a Viewer', () => {
  it(
    'sees the lists with editing disabled and the spec message',
    async () => {
      const viewerEmail = uniqueEmail('viewer');
      const sent = await api('POST', '/send-invite', { email: viewerEmail, role: 'Viewer', firstName: 'Vera', lastName: 'Viewer' });
      expect(sent.status).toBe(201);
      const mail = await system.mailTo(viewerEmail, /invited to/);
      const inviteToken = new URL(/https?:\/\/\S+\/verify-invite\?token=[\w-]+/.exec(mail.text ?? '')![0]).searchParams.get('token');
      expect((await system.api('POST', '/verify-invite', { body: { token: inviteToken, password: PASSWORD, confirmPassword: PASSWORD } })).status).toBe(200);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize(DESKTOP);
        await logInThroughForm(page, viewerEmail, PASSWORD);
        await openVendors(page);
        expect(await page.getByRole('button', { name: 'New vendor' }).isDisabled()).toBe(true);
        expect(await page.getByRole('button', { name: 'Merge vendors' }).isDisabled()).toBe(true);
        await visible(page.getByText('Editing actions are disabled for your account').first());
        await page.goto('/revenue?tab=customers');
        expect(await (await visible(page.getByRole('button', { name: 'New customer' }))).isDisabled()).toBe(true);
        await page.goto('/transactions?tab=rules');
        expect(await (await visible(page.getByRole('button', { name: 'New rule' }))).isDisabled()).toBe(true);
      });
    },
    TEST_MS,
  );
});
