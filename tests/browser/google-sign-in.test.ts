// "Continue with Google" (spec platform-core §7 /login-oauth, /signup-oauth) in real Chromium against the real stack and
// the local Google (OpenID Connect) sandbox: the button goes to Google's account page, the ID token comes back to
// /oauth/google, identity verifies it against the sandbox's published keys, and the new user lands on onboarding; the
// same Google account signs in again from the login page. A forged answer (wrong state) signs nobody in.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOGLE_CLIENT_ID, onboardBody, uniqueEmail, type System } from '../support/system.js';
import { expectInsideWindow, expectNoHorizontalScroll, launchBrowser, openPage, startWebSystem, visible, waitForPath } from './support.js';

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

async function chooseGoogleAccount(page: Page, email: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/o/oauth2/v2/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('Continue with Google', () => {
  it('signs a new user up from the sign-up page, then signs the same Google account in from the login page', async () => {
    const email = uniqueEmail('google-web');
    const { context, page } = await openPage(browser, system.webUrl);
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/signup');
      const button = await visible(page.getByRole('button', { name: 'Continue with Google' }));
      await expectInsideWindow(page, button, 'the Google button at 390 px', { vertically: false });
      await expectNoHorizontalScroll(page, 'sign-up with the Google button at 390 px');
      await page.screenshot({ path: `${SHOTS}/google-signup-390.png`, fullPage: true });
      await button.click();
      await chooseGoogleAccount(page, email);
      // A new account: onboarding first (spec §4), signed in with the Google account's name.
      await waitForPath(page, '/onboard');
      // The token left the address bar and the history entry.
      expect(page.url()).not.toContain('id_token');
      const me = await system.api('POST', '/login-oauth', {
        body: { token: await system.google.idToken({ email }, { audience: GOOGLE_CLIENT_ID }) },
      });
      expect(me.body).toMatchObject({ userCreated: false, user: { email, firstName: 'Grace', lastName: 'Hopper', isVerified: true } });
      expect((await system.api('POST', '/onboard-user', { token: me.body.sessionToken, body: onboardBody })).status).toBe(200);

      await page.setViewportSize({ width: 1440, height: 900 });
      await page
        .getByRole('button', { name: 'User menu' })
        .click()
        .catch(() => undefined);
      // Signed out in this browser: the session lives in its storage.
      await context.clearCookies();
      await page.evaluate(() => {
        window.localStorage.clear();
        window.sessionStorage.clear();
      });
      await page.goto('/login');
      const loginButton = await visible(page.getByRole('button', { name: 'Continue with Google' }));
      const logIn = await visible(page.getByRole('button', { name: 'Log in', exact: true }));
      const [a, b] = [await loginButton.boundingBox(), await logIn.boundingBox()];
      // The Google button sits under the form's button, as wide as it.
      expect(a && b && a.y > b.y && Math.abs(a.width - b.width) < 1).toBe(true);
      await page.screenshot({ path: `${SHOTS}/google-login-1440.png`, fullPage: true });
      await loginButton.click();
      await chooseGoogleAccount(page, email);
      await waitForPath(page, '/dashboard');
      await visible(page.getByRole('heading', { name: /Welcome, Grace/ }));
    } finally {
      await context.close();
    }
  });

  it('refuses an answer that is not to this tab (another state) and signs nobody in', async () => {
    const { context, page } = await openPage(browser, system.webUrl);
    try {
      await page.goto('/login');
      await page.goto('/oauth/google#state=forged&id_token=eyJhbGciOiJSUzI1NiJ9.e30.c2ln');
      await visible(page.getByRole('heading', { name: 'Google sign-in did not finish' }));
      await visible(page.getByText('This Google sign-in is no longer valid. Start again from the sign-in page.'));
      await page.getByRole('link', { name: 'Back to sign in' }).click();
      await waitForPath(page, '/login');
    } finally {
      await context.close();
    }
  });
});
