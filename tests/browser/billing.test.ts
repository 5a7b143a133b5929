// Settings → Billing in real Chromium against the gateway, billing and the Stripe sandbox: the free plan and its
// limits, the six plans with a monthly/yearly toggle, an upgrade through the sandbox's hosted Checkout page and back
// (the session verified, the new plan said and shown); layout at 1440 px (three plans a row) and 390 px (one a
// row, nothing wider than the window); screenshots in test-results/screenshots/billing-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, startSystem, type System } from '../support/system.js';
import {
  boxOf,
  expectNoHorizontalScroll,
  inFreshPage,
  launchBrowser,
  logInThroughForm,
  notice,
  settledLayout,
  TEST_MS,
  visible,
  waitForPath,
} from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
let system: System & { webUrl: string };
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const [started, launched] = await Promise.all([
    startSystem({ web: true, billing: true, gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000' } }),
    launchBrowser(),
  ]);
  browser = launched;
  if (started.webUrl === null) throw new Error('the web app is not served');
  system = { ...started, webUrl: started.webUrl };
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`billing-${name}.png`, SCREENSHOTS).pathname, fullPage: true });

async function openBilling(page: Page, email: string): Promise<void> {
  await logInThroughForm(page, email, PASSWORD);
  await waitForPath(page, '/dashboard');
  await page.goto('/settings?tab=billing');
  await visible(page.getByRole('tab', { name: 'Billing', selected: true }));
  await visible(page.getByRole('region', { name: 'Current plan' }).or(page.getByLabel('Current plan')));
}

/** The y of each plan card, in order. */
async function cardRows(page: Page): Promise<Array<{ x: number; y: number; width: number }>> {
  const cards = page
    .getByRole('list', { name: 'Plans' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3 }) });
  expect(await cards.count()).toBe(6);
  const boxes = [];
  for (let i = 0; i < 6; i++) boxes.push(await boxOf(cards.nth(i), `plan card ${i + 1}`));
  return boxes.map((b) => ({ x: Math.round(b.x), y: Math.round(b.y), width: b.width }));
}

describe('the billing tab', () => {
  it(
    'shows the free plan, toggles yearly prices, upgrades through Stripe Checkout and shows the new plan; 1440 and 390 px layouts',
    async () => {
      const { email, token } = await signedUpUser(system);
      expect((await system.api('POST', '/onboard-user', { token, body: onboardBody })).status).toBe(200);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await openBilling(page, email);
        const current = page.getByLabel('Current plan');
        await visible(current.getByRole('heading', { name: 'Starter' }));
        await visible(current.getByText('Free plan', { exact: true }));
        await visible(current.getByText('You are on the free plan.'));

        // Three plans a row at 1440 px.
        await settledLayout(page);
        const wide = await cardRows(page);
        expect(new Set(wide.slice(0, 3).map((b) => b.y)).size).toBe(1);
        expect(wide[3]!.y).toBeGreaterThan(wide[0]!.y);
        await expectNoHorizontalScroll(page, 'billing at 1440 px');

        const startup = page.getByRole('listitem', { name: 'Startup' });
        await visible(startup.getByText('$24'));
        await page.getByRole('radio', { name: 'Yearly' }).click();
        await visible(startup.getByText('$240'));
        await visible(startup.getByText('/ year'));
        await shot(page, '1440-free');

        // Upgrade: Stripe's hosted page (the sandbox), pay, back to the tab.
        await startup.getByRole('button', { name: 'Choose Startup' }).click();
        await page.waitForURL((url) => url.href.startsWith(system.stripe!.url), { timeout: 20_000 });
        await visible(page.getByRole('heading', { name: 'Startup' }));
        await page.getByRole('button', { name: 'Subscribe' }).click();
        await waitForPath(page, '/settings');
        await visible(notice(page, 'status', 'You are now on the Startup plan.'));
        await expect.poll(() => new URL(page.url()).searchParams.get('session_id')).toBeNull();
        expect(new URL(page.url()).searchParams.get('tab')).toBe('billing');
        await visible(current.getByRole('heading', { name: 'Startup' }));
        await visible(current.getByText('Active', { exact: true }));
        await visible(current.getByText('Billed yearly'));
        await visible(startup.getByRole('button', { name: 'Current plan' }));
        await settledLayout(page);
        await shot(page, '1440-startup');

        // A phone: one plan a row, each inside the window, nothing scrolls sideways.
        await page.setViewportSize({ width: 390, height: 844 });
        await settledLayout(page);
        const narrow = await cardRows(page);
        expect(new Set(narrow.map((b) => b.x)).size).toBe(1);
        for (let i = 1; i < 6; i++) expect(narrow[i]!.y).toBeGreaterThan(narrow[i - 1]!.y);
        for (const b of narrow) expect(b.x + b.width).toBeLessThanOrEqual(390);
        const toggle = await boxOf(page.getByRole('radiogroup', { name: 'Billing period' }), 'the period toggle');
        expect(toggle.x + toggle.width).toBeLessThanOrEqual(390);
        await expectNoHorizontalScroll(page, 'billing at 390 px');
        await shot(page, '390-startup');
      });
    },
    TEST_MS,
  );
});
