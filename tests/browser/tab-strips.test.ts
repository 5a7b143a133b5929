// Tab strips on a phone (issue #13): a row of tabs wider than 390 px scrolls inside itself, and the selected tab is
// always in view, whether the screen was opened from a link naming a far tab or the user moved along the row. The
// kit's Tabs (frontends/ui) does it for every strip; this walks strips of the accounting and the settings remotes,
// measuring each selected tab's box against the window.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, startSystem, type System } from '../support/system.js';
import { boxOf, inFreshPage, launchBrowser, logInThroughForm, STEP_MS, TEST_MS, visible, waitForPath } from './support.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const PHONE = { width: 390, height: 844 };

let system: System & { webUrl: string };
let browser: Browser;
let email: string;

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
  const onboarded = await system.api('POST', '/onboard-user', { token: user.token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

/** The selected tab of the page's (first) strip, once it shows `name`. */
async function selectedTab(page: Page, name: string) {
  const tab = page.getByRole('tab', { name, exact: true, selected: true });
  await visible(tab);
  return tab;
}

/** The tab's box lies inside the window, and the page itself does not scroll sideways. */
async function expectInView(page: Page, name: string): Promise<void> {
  const tab = await selectedTab(page, name);
  // The row scrolls when the tab is selected; measure until it has (a layout effect: before the next paint).
  await expect
    .poll(
      async () => {
        const box = await boxOf(tab, `the ${name} tab`);
        return box.x >= 0 && box.x + box.width <= PHONE.width;
      },
      { timeout: STEP_MS },
    )
    .toBe(true);
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
}

describe('tab strips at 390 px', () => {
  it(
    'bring the selected tab into view, from a link and from the keyboard',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize(PHONE);
        await logInThroughForm(page, email, PASSWORD);
        await waitForPath(page, '/dashboard');

        // A link to a tab far along the row (the shell's area page and the accounting remote's screens).
        for (const [url, name] of [
          ['/revenue?tab=customers', 'Customers'],
          ['/revenue?tab=plans', 'Plans'],
          ['/accounting?tab=fixed-assets', 'Fixed Assets'],
        ] as const) {
          await page.goto(url);
          await expectInView(page, name);
          // The strip really is wider than the window: the first tab has scrolled out of view to show this one.
          const first = await boxOf(page.getByRole('tab').first(), 'the first tab');
          expect(first.x).toBeLessThan(0);
          if (url === '/revenue?tab=customers') await page.screenshot({ path: new URL('tabs-revenue-customers-phone.png', SCREENSHOTS).pathname });
        }

        // Moving along the row with the keyboard keeps the selected tab in view, back to the first one.
        await page.goto('/revenue?tab=overview');
        await expectInView(page, 'Overview');
        const order = ['Revenue Recognition', 'Transactions', 'Payouts', 'Customers', 'Credit Memo', 'Plans'];
        await (await selectedTab(page, 'Overview')).focus();
        for (const name of order) {
          await page.keyboard.press('ArrowRight');
          await expectInView(page, name);
          await expect.poll(() => new URL(page.url()).searchParams.get('tab'), { timeout: STEP_MS }).not.toBe('overview');
        }
        await page.keyboard.press('Home');
        await expectInView(page, 'Overview');
        await page.screenshot({ path: new URL('tabs-revenue-overview-phone.png', SCREENSHOTS).pathname });

        // A remote's strip: settings.
        await page.goto('/settings?tab=security');
        await expectInView(page, 'Security');
        await page.screenshot({ path: new URL('tabs-settings-security-phone.png', SCREENSHOTS).pathname });
      });
    },
    TEST_MS * 2,
  );
});
