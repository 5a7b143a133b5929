// The sign-in flow of spec platform-core §1, §3, §4 in real Chromium against the real stack: a deep link
// survives login; a browser not seen before gets the emailed code step (decision 0006), a trusted one does
// not, "Always ask for a code" brings it back; a 401 shows 'Session expired' and returns to /login.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, type System } from '../support/system.js';
import { field, launchBrowser, mailedCodes, nextMailedCode, notice, openPage, startWebSystem, STEP_MS, visible, waitForPath } from './support.js';

let system: System & { webUrl: string };
let browser: Browser;
const SHOTS = 'test-results/screenshots';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [system, browser] = await Promise.all([startWebSystem(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

const DEEP_LINK = '/transactions?tab=all&filter=nonFinalized';

async function expectOnDeepLink(page: Page): Promise<void> {
  await waitForPath(page, '/transactions');
  const url = new URL(page.url());
  expect(url.searchParams.get('tab')).toBe('all');
  expect(url.searchParams.get('filter')).toBe('nonFinalized');
}

async function submitLogin(page: Page, email: string): Promise<void> {
  await visible(page.getByRole('heading', { name: 'Log in to Ledgerline' }));
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await waitForPath(page, '/login');
}

describe('login', () => {
  it('asks a new browser for the emailed code, returns to the deep link, trusts the browser, and asks again when the user requires it', async () => {
    const { email, token } = await signedUpUser(system);
    expect((await system.api('POST', '/onboard-user', { token, body: onboardBody })).status).toBe(200);
    await system.api('POST', '/logout', { token });

    // A phone-sized browser: the code step must fit it.
    const { context, page } = await openPage(browser, system.webUrl);
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      // Signed out, a deep link goes to /login and remembers where it was going.
      await page.goto(DEEP_LINK);
      await waitForPath(page, '/login');
      expect(new URL(page.url()).searchParams.get('next')).toBe(DEEP_LINK);

      const before = (await mailedCodes(email)).length;
      await submitLogin(page, email);
      await waitForPath(page, '/verify-otp');
      const codeInput = await visible(field(page, 'Verification code'));
      const box = await codeInput.boundingBox();
      if (!box) throw new Error('the code input has no box');
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.y + box.height).toBeLessThanOrEqual(844);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `${SHOTS}/login-code-step-390.png`, fullPage: true });

      await visible(notice(page, 'status', 'We sent a 6-digit code to your email.'));
      await codeInput.fill(await nextMailedCode(email, before));
      await page.getByRole('button', { name: 'Verify' }).click();
      await expectOnDeepLink(page);
      // The code is used: its "sent" notice does not follow the user onto the page they asked for.
      await page.getByText('We sent a 6-digit code to your email.').waitFor({ state: 'detached', timeout: 2_000 });
      await visible(page.getByRole('heading', { name: 'Transactions', level: 1 }));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `${SHOTS}/login-deep-link-390.png` });

      // The same browser again: trusted, so no code step and no new code.
      await logOut(page);
      const afterFirst = (await mailedCodes(email)).length;
      await page.goto(DEEP_LINK);
      await waitForPath(page, '/login');
      await submitLogin(page, email);
      await expectOnDeepLink(page);
      expect((await mailedCodes(email)).length).toBe(afterFirst);

      // Settings → Security → "Always ask for a code": the next login asks again, even here.
      await page.goto('/settings?tab=security');
      const always = page.getByRole('checkbox', { name: 'Always ask for a code' });
      await visible(always);
      await page.waitForFunction(() => !(document.querySelector('input[name="requireCodeAlways"]') as HTMLInputElement | null)?.disabled, undefined, {
        timeout: STEP_MS,
      });
      // The box shows the server's setting: it turns on once PATCH /users/me/security answered.
      await always.click();
      await visible(notice(page, 'status', 'Every sign-in will ask for a code.'));
      await page.waitForFunction(() => (document.querySelector('input[name="requireCodeAlways"]') as HTMLInputElement | null)?.checked === true, undefined, {
        timeout: STEP_MS,
      });
      await page.screenshot({ path: `${SHOTS}/settings-security-390.png`, fullPage: true });
      await logOut(page);
      const beforeAlways = (await mailedCodes(email)).length;
      await submitLogin(page, email);
      await waitForPath(page, '/verify-otp');
      await field(page, 'Verification code').fill(await nextMailedCode(email, beforeAlways));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL((url) => url.pathname !== '/verify-otp', { timeout: STEP_MS });
    } finally {
      await context.close();
    }
  }, 180_000);

  it('on a 401 shows the session-expired warning, clears the session and returns to /login, then back to the page', async () => {
    const { email, token } = await signedUpUser(system);
    expect((await system.api('POST', '/onboard-user', { token, body: onboardBody })).status).toBe(200);
    await system.api('POST', '/logout', { token });
    const { context, page } = await openPage(browser, system.webUrl);
    try {
      await page.goto('/settings?tab=profile');
      const before = (await mailedCodes(email)).length;
      await submitLogin(page, email);
      await waitForPath(page, '/verify-otp');
      await field(page, 'Verification code').fill(await nextMailedCode(email, before));
      await page.getByRole('button', { name: 'Verify' }).click();
      await waitForPath(page, '/settings');

      // The server ends the session behind the app's back (another tab logged out, an admin, expiry).
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('ledgerline') ?? '{}') as { auth?: { accessToken?: string } });
      const sessionToken = stored.auth?.accessToken;
      expect(sessionToken).toBeTruthy();
      expect((await system.api('POST', '/logout', { token: sessionToken })).status).toBe(200);

      // The next call answers 401: warning, local data cleared, back to /login (remembering the page).
      await page.reload();
      await visible(notice(page, 'alert', 'Session expired'));
      await waitForPath(page, '/login');
      expect(new URL(page.url()).searchParams.get('next')).toBe('/settings?tab=profile');
      const after = await page.evaluate(
        () => JSON.parse(localStorage.getItem('ledgerline') ?? '{}') as { auth?: { accessToken?: string | null; isAuthenticated?: boolean } },
      );
      expect(after.auth?.accessToken ?? null).toBeNull();
      // The device token is not session data: it stays, so this browser is still trusted.
      expect(await page.evaluate(() => localStorage.getItem('ledgerline.device'))).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await page.screenshot({ path: `${SHOTS}/session-expired.png` });

      await submitLogin(page, email);
      await waitForPath(page, '/settings');
      expect(new URL(page.url()).searchParams.get('tab')).toBe('profile');
    } finally {
      await context.close();
    }
  }, 120_000);
});
