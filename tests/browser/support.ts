// What the browser tests share: one Chromium per file, a fresh context per test, and waits on what a user
// sees (a URL, a heading, a message) rather than on time.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser } from '../../frontends/shell/test/browser.js';
import { startSystem, type System } from '../support/system.js';

export { launchBrowser };

/** How long a step may take before the test says which one hung. */
export const STEP_MS = 10_000;

/** The real stack with the built shell and settings remote. */
export async function startWebSystem(): Promise<System & { webUrl: string }> {
  // Generous limits: these files sign in a few times from one machine; limits are tested in tests/api.
  const system = await startSystem({ web: true, gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000' } });
  if (system.webUrl === null) {
    await system.stop();
    throw new Error('startSystem({ web: true }) served no web app');
  }
  return { ...system, webUrl: system.webUrl };
}

/** A fresh browser profile (no storage shared with other tests) with the app's origin as base URL. */
export async function openPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(STEP_MS);
  const page = await context.newPage();
  // The app's own errors explain a failing step better than a timeout does.
  page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
  return { context, page };
}

/** Waits until the address bar shows `pathname` (client-side redirects included). */
export async function waitForPath(page: Page, pathname: string): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === pathname, { timeout: STEP_MS, waitUntil: 'commit' });
  } catch {
    throw new Error(`expected to be on ${pathname}, still on ${new URL(page.url()).pathname}`);
  }
}

export const pathOf = (page: Page): string => new URL(page.url()).pathname;

/** Waits for the locator to be visible and returns it, so a test reads as "the user sees X". */
export async function visible(locator: Locator): Promise<Locator> {
  await locator.waitFor({ state: 'visible' });
  return locator;
}

/** The accessible description of a field (its error or hint), as a screen reader announces it. */
export function descriptionOf(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => element.ownerDocument.getElementById(id)?.textContent?.trim() ?? '')
      .join(' '),
  );
}

/** A notice the app shows (role alert for errors and warnings, status for the rest) with exactly `text`. */
export function notice(page: Page, role: 'alert' | 'status', text: string): Locator {
  return page.getByRole(role).filter({ has: page.getByText(text, { exact: true }) });
}

/** A text input by its accessible name (the label without the required mark), as assistive technology finds it. */
export const field = (page: Page, name: string): Locator => page.getByRole('textbox', { name, exact: true });

/** Logs in through the login form; the account's code check is recent, so no code step follows. */
export async function logInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}
