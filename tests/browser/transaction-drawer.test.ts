// The transaction drawer complete (issue #13) in real Chromium against the real stack: a person attaches a
// receipt (a file chosen in the file input), opens it back as a download, posts a comment tagging a member (one who
// has never opened the app, found by typing part of their email in the tag picker; decision 0036),
// sees both in the transaction's history, and exports the transactions and the general ledger as CSV with
// the filters on screen. The drawer fits the viewport at 1440×900 and at 390×844; screenshots of both go to
// test-results/screenshots/drawer-*.png.
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@ledgerline/platform/testing';
import { onboardBody, PASSWORD, signedUpUser, uniqueEmail, type System } from '../support/system.js';
import {
  importBankTransactions,
  inFreshPage,
  launchBrowser,
  logInThroughForm,
  notice,
  startLedgerWebSystem,
  STEP_MS,
  TEST_MS,
  visible,
  waitForPath,
} from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

interface Txn {
  id: string;
  amount: number;
  memo: string;
  biller: { name: string } | null;
}

let system: System & { webUrl: string; plaid: NonNullable<System['plaid']> };
let browser: Browser;
let email: string;
let token: string;
let txn: Txn;
let colleague: { email: string; name: string };

beforeAll(async () => {
  [system, browser] = await Promise.all([startLedgerWebSystem({ documents: true }), launchBrowser()]);
  const user = await signedUpUser(system);
  email = user.email;
  token = user.token;
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  await importBankTransactions(system, token, 12);
  // A colleague invited into the workspace, who accepts and never opens the app: identity's member.changed alone
  // makes them taggable.
  const invitee = uniqueEmail('colleague');
  const sent = await system.api('POST', '/send-invite', {
    token,
    workspace: user.user.workspace.id,
    body: { email: invitee, role: 'Viewer', firstName: 'Grace', lastName: 'Hopper' },
  });
  if (sent.status !== 201) throw new Error(`send-invite answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  const mail = await system.mailTo(invitee, /invited to/);
  const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no invite link in "${mail.text}"`);
  const accepted = await system.api('POST', '/verify-invite', {
    body: { token: new URL(link).searchParams.get('token'), password: PASSWORD, confirmPassword: PASSWORD },
  });
  if (accepted.status !== 200) throw new Error(`verify-invite answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
  colleague = { email: invitee, name: 'Grace Hopper' };
  await expectEventually(
    async () => {
      const members = await system.api('GET', '/transactions/taggable-users', { token });
      if (!(members.body.data as { email: string }[]).some((m) => m.email === invitee)) throw new Error('the ledger does not know the colleague yet');
    },
    { timeoutMs: 30_000 },
  );
  const list = await system.api('GET', '/transactions/v2?take=20', { token });
  const first = (list.body.data as Txn[]).find((t) => t.amount < 0);
  if (!first) throw new Error('the sandbox gave no outflow');
  txn = first;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

const describeTxn = (t: Txn) => t.biller?.name || t.memo;

/** The drawer's box lies inside the viewport (no part off-screen, no sideways page scroll). */
async function expectDrawerInViewport(page: Page, viewport: { width: number; height: number }, name: string): Promise<void> {
  await page.setViewportSize(viewport);
  const drawer = page.getByRole('dialog', { name: describeTxn(txn) });
  await visible(drawer);
  await expect
    .poll(
      async () => {
        const box = await drawer.boundingBox();
        return (
          box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width + 0.5 && box.y + box.height <= viewport.height + 0.5 && box.width > 0
        );
      },
      { timeout: 5_000 },
    )
    .toBe(true);
  const box = await drawer.boundingBox();
  expect(box?.width, `the drawer's width at ${viewport.width}px`).toBeGreaterThanOrEqual(Math.min(viewport.width, 320));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  await page.screenshot({ path: new URL(`drawer-${name}.png`, SCREENSHOTS).pathname });
}

/** Clicks `button` and answers the download's file name and text. */
async function downloadFrom(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: (await readFile(path)).toString('utf8') };
}

describe('the transaction drawer', () => {
  it(
    'attaches a receipt, posts a tagged comment and shows both in the history; fits the viewport at both sizes',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize(DESKTOP);
        await logInThroughForm(page, email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await page.goto(`/transactions?tab=all&txn=${txn.id}`);
        const drawer = await visible(page.getByRole('dialog', { name: describeTxn(txn) }));

        // A receipt, chosen in the file input.
        const receipts = drawer.getByRole('region', { name: 'Receipts' });
        await visible(receipts.getByText('No receipt attached.'));
        await drawer.getByTestId('receipt-input').setInputFiles({ name: 'toner-receipt.png', mimeType: 'image/png', buffer: PNG });
        await visible(notice(page, 'status', 'Receipt has been uploaded successfully.'));
        const attached = receipts.getByRole('list', { name: 'Attached receipts' });
        await visible(attached.getByText('toner-receipt.png', { exact: true }));
        // Downloaded back: the same bytes.
        const [download] = await Promise.all([page.waitForEvent('download'), attached.getByRole('button', { name: 'Download toner-receipt.png' }).click()]);
        expect(download.suggestedFilename()).toBe('toner-receipt.png');
        expect(Buffer.compare(await readFile(await download.path()), PNG)).toBe(0);
        // Opened: a new tab shows the file itself, as an image of the receipt's content type, decoded (the picture's size).
        const [tab] = await Promise.all([page.waitForEvent('popup'), attached.getByRole('button', { name: 'Open toner-receipt.png' }).click()]);
        await tab.waitForLoadState();
        expect(tab.url()).toMatch(/^blob:/);
        await tab.waitForFunction(() => (document.querySelector('img')?.naturalWidth ?? 0) > 0, undefined, { timeout: STEP_MS });
        const opened = await tab.evaluate(() => ({
          type: document.contentType,
          width: document.querySelector('img')?.naturalWidth,
          height: document.querySelector('img')?.naturalHeight,
        }));
        expect(opened).toEqual({ type: 'image/png', width: PNG.readUInt32BE(16), height: PNG.readUInt32BE(20) });
        await tab.close();

        // A file that is not a receipt is refused with the server's reason.
        await drawer.getByTestId('receipt-input').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just text') });
        await visible(notice(page, 'alert', 'notes.png is not a jpg, jpeg, png or pdf file'));
        await expect.poll(() => attached.getByRole('listitem').count()).toBe(1);

        // A comment tagging a member: the colleague who never opened the app, found by part of their email.
        const comments = drawer.getByRole('region', { name: 'Comments' });
        await comments.getByRole('textbox', { name: 'Add a comment' }).fill('Printer toner for the office — receipt attached');
        const search = comments.getByRole('combobox', { name: 'Tag users' });
        await search.click();
        // Every member is offered, each with their email.
        await expect.poll(() => page.getByRole('option').count()).toBe(2);
        await visible(page.getByRole('option', { name: new RegExp(colleague.email.replace(/[.+]/g, '\\$&')) }));
        const searchBox = await search.boundingBox();
        const panelBox = await page.getByRole('listbox').boundingBox();
        expect(panelBox!.width, 'the member list is at least as wide as the search field').toBeGreaterThanOrEqual(searchBox!.width - 0.5);
        await search.fill(colleague.email.split('@')[0]!.slice(0, 9).toUpperCase());
        await expect.poll(() => page.getByRole('option').count()).toBe(1);
        await page.screenshot({ path: new URL('drawer-tag-picker-desktop.png', SCREENSHOTS).pathname });
        const option = page.getByRole('option').first();
        await visible(option.getByText(colleague.name, { exact: true }));
        await option.click();
        await page.keyboard.press('Escape');
        const tagged = colleague.name;
        await visible(comments.getByRole('list', { name: 'Users to tag' }).getByText(`@${tagged}`));
        await comments.getByRole('button', { name: 'Post comment' }).click();
        await visible(notice(page, 'status', 'Posted Comment Succesfully'));
        const posted = comments.getByRole('list', { name: 'Comments' }).getByRole('listitem').first();
        await visible(posted.getByText('Printer toner for the office — receipt attached'));
        await visible(posted.getByText(`@${tagged}`));

        // The history, newest first: the comment, then the receipt.
        const history = drawer.getByRole('list', { name: 'History' });
        await expect
          .poll(async () => (await history.locator('li').allTextContents()).slice(0, 2).map((s) => s.split(/[:”]/)[0]?.trim()))
          .toEqual(['Commented', 'Receipt attached']);
        await visible(history.getByText(/Receipt attached: toner-receipt\.png/));

        await expectDrawerInViewport(page, DESKTOP, 'desktop');
        await expectDrawerInViewport(page, PHONE, 'phone');
        // At 390 px the member list opens inside the window, as wide as the search field at least, and the notices
        // stacked at the bottom give way to it (decision 0041): two refused files put two alerts there, and the field
        // sits low enough that its list opens where they are drawn.
        for (const name of ['minutes.png', 'memo.png']) {
          await drawer.getByTestId('receipt-input').setInputFiles({ name, mimeType: 'image/png', buffer: Buffer.from('just text') });
          await visible(notice(page, 'alert', `${name} is not a jpg, jpeg, png or pdf file`));
        }
        const phoneSearch = comments.getByRole('combobox', { name: 'Tag users' });
        await phoneSearch.scrollIntoViewIfNeeded();
        await phoneSearch.click();
        await expect.poll(() => page.getByRole('option').count()).toBe(2);
        // The field low in the window (its list follows it): the list opens below it, where the bottom notices are drawn.
        await phoneSearch.evaluate((field, bottom) => {
          const scroller = field.closest('[role="dialog"]')!;
          scroller.scrollTop += field.getBoundingClientRect().bottom - bottom;
        }, PHONE.height - 170);
        const list = page.getByRole('listbox');
        const [fieldBox, listBox] = [await phoneSearch.boundingBox(), await list.boundingBox()];
        expect(listBox!.x, 'the member list starts inside the window').toBeGreaterThanOrEqual(-0.5);
        expect(listBox!.x + listBox!.width, 'the member list ends inside the window').toBeLessThanOrEqual(PHONE.width + 0.5);
        expect(listBox!.width, 'the member list is at least as wide as the search field').toBeGreaterThanOrEqual(fieldBox!.width - 0.5);
        // Both alerts stay shown, inside the window, and none covers the open list.
        await expect
          .poll(
            () =>
              page.evaluate(() => {
                const box = (e: Element) => e.getBoundingClientRect();
                const panel = box(document.querySelector('[role="listbox"]')!);
                // Where the bottom notices are drawn when nothing is in the way: 1rem above the window's bottom edge.
                const natural = window.innerHeight - 16 - box(document.querySelector('[data-notice-region="bottom"]')!).height;
                const shown = [...document.querySelectorAll('[data-notice-region] > [role]')].filter((n) => n.checkVisibility({ visibilityProperty: true }));
                return {
                  reaches: panel.top > 0 && panel.bottom > natural,
                  shown: shown.length >= 2,
                  inWindow: shown.every((n) => box(n).top >= 0 && box(n).bottom <= window.innerHeight),
                  covering: shown.filter((n) => {
                    const b = box(n);
                    return b.left < panel.right && panel.left < b.right && b.top < panel.bottom && panel.top < b.bottom;
                  }).length,
                };
              }),
            // Well inside the alerts' 5 s: the notices move a frame after the list opens.
            { timeout: 2_000 },
          )
          .toEqual({ reaches: true, shown: true, inWindow: true, covering: 0 });
        await page.screenshot({ path: new URL('drawer-tag-picker-phone.png', SCREENSHOTS).pathname });
        await page.keyboard.press('Escape');
      });
    },
    TEST_MS,
  );

  it(
    'exports the transactions with the filters on screen and the general ledger of the period as CSV',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize(DESKTOP);
        const asked: string[] = [];
        page.on('request', (r) => {
          const url = new URL(r.url());
          if (url.pathname.endsWith('/csv')) asked.push(`${url.pathname}?${url.searchParams.toString()}`);
        });
        await logInThroughForm(page, email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await page.goto('/transactions?tab=all&flow=outflow');
        await visible(page.getByRole('heading', { name: 'Transactions', level: 1 }));
        const csv = await downloadFrom(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
        expect(csv.name).toMatch(/^transactions.*\.csv$/);
        expect(csv.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
          'Date,Memo,Biller,Category,Category code,Debit account,Credit account,Amount,Currency,Finalized,Split,Pending,Transaction id',
        );
        const lines = csv.text.split('\r\n').filter((l) => l !== '');
        // The filter on screen went along: outflows only.
        const outflows = await system.api('GET', '/transactions/v2?flow=outflow&take=100', { token });
        expect(lines.length - 1).toBe(outflows.body.meta.itemCount);
        expect(asked.find((a) => a.startsWith('/transactions/csv'))).toContain('flow=outflow');

        await page.goto('/accounting?tab=ledger&startDate=2020-01-01&endDate=2030-12-31');
        const gl = await downloadFrom(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
        expect(gl.name).toMatch(/^general-ledger.*\.csv$/);
        expect(gl.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('Account,Code,Type,Opening balance,Debits,Credits,Closing balance');
        expect(asked.find((a) => a.startsWith('/general-ledger/csv'))).toContain('startDate=2020-01-01');
        await page.screenshot({ path: new URL('drawer-general-ledger-export.png', SCREENSHOTS).pathname });
      });
    },
    TEST_MS,
  );
});
