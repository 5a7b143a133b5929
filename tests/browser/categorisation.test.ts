// Learned categorisation on /transactions (issue #17 item 7) in real Chromium against identity, the gateway, the
// ledger and the parties service; banking's events are published on the system's bus. A person's past
// categorisations make the next import's confident transaction categorised automatically ("Auto" on its row,
// "Categorised automatically" in its drawer) and the unsure one show "Suggested: …" on its row, which accepts the
// suggestion with one click. The row keeps its one-line height; no sideways scroll at 390 px. Screenshots in
// test-results/screenshots/categorisation-*.png.
import { mkdirSync } from 'node:fs';
import { expectEventually } from '@ledgerline/platform/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingFor } from '../../services/ledger/test/support.js';
import { onboardBody, PASSWORD, signedUpUser, startSystem, type System } from '../support/system.js';
import { inFreshPage, launchBrowser, logInThroughForm, notice, STEP_MS, TEST_MS, visible, waitForPath } from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);

let system: System & { webUrl: string };
let browser: Browser;
let email: string;
let token: string;
let workspaceId: string;
const ids: Record<'coffee' | 'target', string> = { coffee: '', target: '' };

const pad = (n: number) => String(n).padStart(2, '0');
/** The local calendar day `daysAgo` days back. */
function day(daysAgo: number): string {
  const d = new Date();
  d.setDate(d.getDate() - daysAgo);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

interface Txn {
  id: string;
  amount: number;
  memo: string;
  creationMode: string | null;
  suggestion: { categoryId: string; categoryName: string } | null;
  category: { id: string; name: string } | null;
}
const api = (method: string, path: string, body?: unknown) => system.api(method, path, { token, body });

/** Waits until the ledger lists a transaction of this amount, and answers it. */
const booked = (amountCents: number, check: (t: Txn) => boolean = () => true) =>
  expectEventually(
    async () => {
      const list = await api('GET', '/transactions/v2?take=100');
      const found = (list.body?.data as Txn[] | undefined)?.find((t) => Math.round(t.amount * 100) === amountCents);
      if (!found || !check(found)) throw new Error(`no transaction of ${amountCents} as expected yet: ${JSON.stringify(found)}`);
      return found;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const [started, launched] = await Promise.all([
    startSystem({
      web: true,
      ledger: true,
      parties: true,
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
  workspaceId = user.user.workspace.id;
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  const bank = bankingFor(system.bus, workspaceId);
  const account = await bank.link();
  const history: [string, number, number][] = [
    ['SQ *BLUE BOTTLE 1101', -525, 20],
    ['SQ *BLUE BOTTLE 1102', -610, 18],
    ['SQ *BLUE BOTTLE 1103', -480, 16],
    ['TARGET 0001', -4200, 15],
    ['TARGET 0002', -4300, 14],
    ['TARGET 0003', -4100, 13],
    ['TARGET 0004', -4250, 12],
  ];
  for (const [name, amountCents, ago] of history) await bank.add(account, { amountCents, name, date: day(ago) });
  const categories = (await api('GET', '/categories')).body.categories as { id: string; name: string }[];
  const cat = (name: string) => categories.find((c) => c.name === name)!.id;
  const items = [];
  for (const [i, [name, amountCents]] of history.entries()) {
    const t = await booked(amountCents);
    // Target: the same amounts in two categories, turn about (the model must not apply either).
    items.push({ id: t.id, categoryId: name.startsWith('TARGET') && i % 2 === 0 ? cat('Office Supplies') : cat('Meals and Entertainment') });
  }
  const patched = await api('PATCH', '/transactions', { transactions: items });
  if (patched.status !== 200) throw new Error(`PATCH /transactions answered ${patched.status}: ${JSON.stringify(patched.body)}`);
  // The next import: a merchant the history agrees on, then (once the model has learnt) one it does not.
  await bank.add(account, { amountCents: -575, name: 'SQ *BLUE BOTTLE 2201', date: day(2) });
  ids.coffee = (await booked(-575, (t) => t.creationMode === 'auto')).id;
  await bank.add(account, { amountCents: -4150, name: 'TARGET 0042', date: day(1) });
  ids.target = (await booked(-4150, (t) => t.suggestion !== null)).id;
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

async function openReview(page: Page): Promise<void> {
  await logInThroughForm(page, email, PASSWORD);
  await waitForPath(page, '/dashboard');
  await page.goto('/transactions?tab=review');
  await visible(page.getByRole('heading', { name: 'Transactions', level: 1 }));
}

const row = (page: Page, id: string) => page.locator(`tr[data-transaction-id="${id}"]`);

describe('learned categorisation on /transactions', () => {
  it(
    'shows Auto on the applied row, Suggested on the unsure one, keeps rows one line high, and accepts a suggestion with a click',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await openReview(page);
        const target = await visible(row(page, ids.target));
        const chip = await visible(target.getByRole('button', { name: /^Accept suggested category /i }));
        const suggestion = (await api('GET', `/transactions/v2/${ids.target}`)).body.suggestion as { categoryId: string; categoryName: string };
        expect(await chip.textContent()).toBe(`✓${suggestion.categoryName}`);
        const coffee = await visible(row(page, ids.coffee));
        const auto = await visible(coffee.getByText('Auto', { exact: true }));
        // The badge is whole inside its cell (the description gives way to it).
        const [autoBox, cellBox] = [await auto.boundingBox(), await coffee.getByRole('cell').nth(2).boundingBox()];
        expect(autoBox!.x + autoBox!.width).toBeLessThanOrEqual(cellBox!.x + cellBox!.width + 0.5);
        // One line each, like the rows without a suggestion; the chip inside its row.
        const [targetBox, coffeeBox, chipBox] = [await target.boundingBox(), await coffee.boundingBox(), await chip.boundingBox()];
        expect(targetBox!.height).toBeLessThanOrEqual(coffeeBox!.height + 0.5);
        expect(chipBox!.y).toBeGreaterThanOrEqual(targetBox!.y - 0.5);
        expect(chipBox!.y + chipBox!.height).toBeLessThanOrEqual(targetBox!.y + targetBox!.height + 0.5);
        // The chip gives way to the description: the merchant's name is shown whole.
        const name = target.getByRole('button', { name: 'TARGET 0042', exact: true });
        const [textWidth, boxWidth] = await name.evaluate((b) => {
          const text = document.createRange();
          text.selectNodeContents(b);
          const style = getComputedStyle(b);
          return [text.getBoundingClientRect().width, b.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)];
        });
        expect(textWidth).toBeLessThanOrEqual(boxWidth + 0.01);
        await page.screenshot({ path: new URL('categorisation-review.png', SCREENSHOTS).pathname });

        await page.setViewportSize({ width: 390, height: 844 });
        await visible(row(page, ids.target).getByRole('button', { name: /^Accept suggested category /i }));
        const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        expect(scroll).toBeLessThanOrEqual(client);
        await page.screenshot({ path: new URL('categorisation-review-phone.png', SCREENSHOTS).pathname });
        await page.setViewportSize({ width: 1440, height: 900 });

        await row(page, ids.target)
          .getByRole('button', { name: /^Accept suggested category /i })
          .click();
        await visible(notice(page, 'status', 'Transaction has been updated successfully.'));
        await row(page, ids.target)
          .getByRole('button', { name: /^Accept suggested category /i })
          .waitFor({ state: 'detached', timeout: STEP_MS });
        const accepted = (await api('GET', `/transactions/v2/${ids.target}`)).body as Txn;
        expect(accepted).toMatchObject({ creationMode: 'manual', suggestion: null, category: { id: suggestion.categoryId } });
      });
    },
    TEST_MS,
  );

  it(
    'says in the drawer that a transaction was categorised automatically',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await openReview(page);
        const coffee = await visible(row(page, ids.coffee));
        await coffee
          .getByRole('button', { name: /BLUE BOTTLE/i })
          .first()
          .click();
        const drawer = await visible(page.getByRole('dialog', { name: /BLUE BOTTLE/i }));
        await visible(drawer.getByText(/^Categorised automatically from your past categorisations/));
        await page.screenshot({ path: new URL('categorisation-drawer.png', SCREENSHOTS).pathname });
      });
    },
    TEST_MS,
  );
});
