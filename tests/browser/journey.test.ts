// A new customer's first visit in real Chromium against the real stack (identity, gateway, NATS, mail over
// SMTP, the built shell): sign up, verify the mailed code, onboard, reach the dashboard, sign out; and the
// route guard of spec §2 at each step. Messages are spelled out on purpose: they are the spec's, verbatim.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, signUpBody, uniqueEmail, type System } from '../support/system.js';
import { descriptionOf, field, inFreshPage, launchBrowser, notice, pathOf, startWebSystem, TEST_MS, visible, waitForPath } from './support.js';

let system: System & { webUrl: string };
let browser: Browser;

beforeAll(async () => {
  [system, browser] = await Promise.all([startWebSystem(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

/** Spec §3, in the spec's order. */
const REFERRAL_OPTIONS = [
  'Google',
  'YC',
  'Product Hunt',
  'Social Media',
  'Friends',
  'Accel',
  'Goodwater Capital',
  'Frontier Ventures',
  'Global Brains',
  'Accounting Firm',
  'Other',
];

/** Spec §2: the main navigation of a business user. */
const BUSINESS_NAV = ['Dashboard', 'Expenses', 'Transactions', 'Revenue', 'Accounting', 'Reports', 'Accounting Sync'];

describe('signed out', () => {
  it(
    'sends a visitor who opens a protected page, or onboarding, to log in',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        for (const path of ['/dashboard', '/settings', '/transactions?tab=review', '/onboard', '/']) {
          await page.goto(path);
          await waitForPath(page, '/login');
          await visible(page.getByRole('heading', { name: 'Log in to Ledgerline' }));
        }
      });
    },
    TEST_MS,
  );

  it(
    'names every empty sign-up field with the spec message, and sends nothing',
    async () => {
      await inFreshPage(browser, system.webUrl, async (page) => {
        const calls: string[] = [];
        page.on('request', (request) => {
          if (request.url().startsWith(system.gatewayUrl)) calls.push(request.url());
        });
        await page.goto('/signup');
        await page.getByRole('button', { name: 'Create account' }).click();

        const expected: Record<string, string> = {
          'First Name': 'First Name is required',
          'Middle Name': 'Middle Name is required',
          'Last Name': 'Last Name is required',
          'Company Name': 'Company name is required',
          'Team Size': 'Team size field is required',
          Email: 'Email cannot be empty',
          Password: 'Must be 8 or more characters',
        };
        for (const [label, message] of Object.entries(expected)) {
          await visible(page.getByText(message, { exact: true }));
          const input = field(page, label);
          expect(await input.getAttribute('aria-invalid'), label).toBe('true');
          expect(await descriptionOf(input), label).toBe(message);
        }
        expect(pathOf(page)).toBe('/signup');
        expect(calls).toEqual([]);

        // A fixed field loses its message as the user types; a bad email gets the validity message.
        await field(page, 'First Name').fill('Ada');
        await page.getByText('First Name is required', { exact: true }).waitFor({ state: 'detached' });
        await field(page, 'Email').fill('ada@');
        await visible(page.getByText('Please enter a valid email', { exact: true }));
        // A long password still needs an uppercase letter, a lowercase letter and a number (identity's rule).
        await field(page, 'Password').fill('longenough');
        await visible(page.getByText('Must contain at least one uppercase letter, one lowercase letter, and one number', { exact: true }));
        expect(calls).toEqual([]);
      });
    },
    TEST_MS,
  );
});

describe('a new customer', () => {
  it(
    'signs up, verifies the mailed code, onboards, reaches the dashboard and signs out',
    async () => {
      const email = uniqueEmail('journey');
      await inFreshPage(browser, system.webUrl, async (page) => {
        // Sign up the way a user does: by the labels they read.
        await page.goto('/signup');
        await visible(page.getByRole('heading', { name: 'Create your account' }));
        await field(page, 'First Name').fill('Grace');
        await field(page, 'Middle Name').fill('Brewster');
        await field(page, 'Last Name').fill('Hopper');
        await field(page, 'Company Name').fill('Compiler Works');
        await field(page, 'Team Size').fill('12');
        // Mixed case, as people type it: the account is created under the lowercased address.
        await field(page, 'Email').fill(email.toUpperCase());
        await field(page, 'Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Create account' }).click();

        await waitForPath(page, '/verify-otp');
        await visible(page.getByRole('heading', { name: 'Check your email' }));
        await visible(page.getByText(email, { exact: true }));

        // A wrong code shows identity's message and keeps the user on the code step.
        const code = await system.codeFor(email);
        const wrong = code.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
        await field(page, 'Verification code').fill(wrong);
        await page.getByRole('button', { name: 'Verify', exact: true }).click();
        await visible(notice(page, 'alert', 'Invalid code'));
        expect(pathOf(page)).toBe('/verify-otp');

        // The right code signs in; the guard sends a user who is not onboarded to onboarding.
        await field(page, 'Verification code').fill(code);
        await page.getByRole('button', { name: 'Verify', exact: true }).click();
        await waitForPath(page, '/onboard');
        await visible(page.getByRole('heading', { name: 'Welcome, Grace' }));

        // Typing a protected address does not skip onboarding, and neither does going back to log in.
        for (const path of ['/dashboard', '/settings', '/login']) {
          await page.goto(path);
          await waitForPath(page, '/onboard');
          await visible(page.getByRole('heading', { name: 'Welcome, Grace' }));
        }

        // Sign-up already told us the company and team size.
        expect(await field(page, 'Company Name').inputValue()).toBe('Compiler Works');
        expect(await field(page, 'Team Size').inputValue()).toBe('12');

        // Submitting without the rest names what is missing.
        await page.getByRole('button', { name: 'Continue' }).click();
        await visible(page.getByText('Phone number must be 10 digits', { exact: true }));
        await visible(page.getByText('Please tell us how you heard about us', { exact: true }));
        expect(pathOf(page)).toBe('/onboard');

        await field(page, 'Your Role').fill('CTO');
        await field(page, 'Phone Number').fill('5551234567');
        await field(page, 'City').fill('Arlington');
        await field(page, 'Country').fill('US');

        // The referral list offers exactly the spec's options, in its order.
        await page.getByRole('button', { name: /How did you hear about us\?/ }).click();
        const listbox = await visible(page.getByRole('listbox'));
        expect(await listbox.getByRole('option').allInnerTexts()).toEqual(REFERRAL_OPTIONS);
        await listbox.getByRole('option', { name: 'Product Hunt', exact: true }).click();
        await listbox.waitFor({ state: 'hidden' });
        await page.getByText('Please tell us how you heard about us', { exact: true }).waitFor({ state: 'detached' });
        await visible(page.getByRole('button', { name: /How did you hear about us\?/ }).getByText('Product Hunt'));

        await page.getByRole('button', { name: 'Continue' }).click();
        await waitForPath(page, '/dashboard');
        await visible(page.getByRole('heading', { name: 'Welcome, Grace' }));
        await visible(page.getByText('Compiler Works').first());

        // The business navigation of spec §2.
        const nav = await visible(page.getByRole('navigation', { name: 'Main' }));
        expect(await nav.getByRole('link').allInnerTexts()).toEqual(BUSINESS_NAV);
        await nav.getByRole('link', { name: 'Reports' }).click();
        await waitForPath(page, '/reports');
        await visible(page.getByRole('heading', { name: 'Reports', level: 1 }));

        // The server kept the onboarding answers.
        const token = await page.evaluate(
          () => (JSON.parse(localStorage.getItem('ledgerline') ?? '{}') as { auth?: { accessToken?: string } }).auth?.accessToken,
        );
        const me = await system.api('GET', '/users/me', { token: token ?? '' });
        expect(me.status).toBe(200);
        expect(me.body).toMatchObject({
          email,
          isOnboarded: true,
          profile: { role: 'CTO', phoneNumber: '5551234567', city: 'Arlington', country: 'US', heardAboutUs: 'Product Hunt' },
        });

        // Onboarded: the public routes send the user home, and a reload keeps the session.
        for (const path of ['/login', '/signup', '/onboard']) {
          await page.goto(path);
          await waitForPath(page, '/dashboard');
          await visible(page.getByRole('heading', { name: 'Welcome, Grace' }));
        }

        // Log out from the user menu: back to log in, and protected pages stay closed.
        await page.getByRole('button', { name: 'User menu' }).click();
        await page.getByRole('menuitem', { name: 'Log out' }).click();
        await waitForPath(page, '/login');
        await visible(page.getByRole('heading', { name: 'Log in to Ledgerline' }));
        for (const path of ['/dashboard', '/settings']) {
          await page.goto(path);
          await waitForPath(page, '/login');
          await visible(page.getByRole('heading', { name: 'Log in to Ledgerline' }));
        }
        // The server ended the session too, not only this tab.
        expect((await system.api('GET', '/users/me', { token: token ?? '' })).status).toBe(401);
      });
    },
    TEST_MS,
  );
});

describe('a returning user', () => {
  /** Verification mails to `email`, newest first, once there are at least `count` of them. */
  async function verificationCodes(email: string, count: number): Promise<string[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await fetch(`${system.mailbox.url}/api/messages?to=${encodeURIComponent(email)}`);
      const codes = ((await res.json()) as Array<{ subject: string }>)
        .map((m) => /^(\d{6}) is your Ledgerline verification code/.exec(m.subject)?.[1])
        .filter((c): c is string => c !== undefined);
      if (codes.length >= count) return codes;
      if (Date.now() > deadline) throw new Error(`expected ${count} verification mails to ${email}, have ${codes.length}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it(
    'who never verified logs in, gets a fresh code with Resend code, and continues to onboarding',
    async () => {
      const email = uniqueEmail('unverified');
      expect((await system.api('POST', '/signup', { body: signUpBody(email) })).status).toBe(201);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.goto('/login');
        await field(page, 'Email').fill(email);
        await field(page, 'Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Log in' }).click();
        await waitForPath(page, '/verify-otp');
        await visible(page.getByText(email, { exact: true }));

        // Sign-up and login each mailed a code; Resend code mails a third that replaces them.
        const [loginCode] = await verificationCodes(email, 2);
        await page.getByRole('button', { name: 'Resend code' }).click();
        const [newest] = await verificationCodes(email, 3);
        if (loginCode === undefined || newest === undefined) throw new Error('no codes');
        if (loginCode !== newest) {
          await field(page, 'Verification code').fill(loginCode);
          await page.getByRole('button', { name: 'Verify', exact: true }).click();
          await visible(notice(page, 'alert', 'Invalid code'));
        }
        await field(page, 'Verification code').fill(newest);
        await page.getByRole('button', { name: 'Verify', exact: true }).click();
        await waitForPath(page, '/onboard');
        await visible(page.getByRole('heading', { name: 'Welcome, Ada' }));
      });
    },
    TEST_MS,
  );

  it(
    'who forgot the password sets a new one from the mailed link and is signed in',
    async () => {
      const { email, token } = await signedUpUser(system);
      expect((await system.api('POST', '/onboard-user', { token, body: onboardBody })).status).toBe(200);
      const newPassword = 'Res3tPassword';
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.goto('/login');
        await page.getByRole('link', { name: 'Forgot password?' }).click();
        await waitForPath(page, '/forgot-password');
        await field(page, 'Email').fill(email);
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await visible(page.getByRole('status').filter({ hasText: 'If an account exists for that email, we sent a link to reset the password.' }).first());

        const mail = await system.mailTo(email, /Reset your Ledgerline password/);
        const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
        if (link === undefined) throw new Error(`no link in "${mail.text}"`);
        expect(new URL(link).origin).toBe(new URL(system.webUrl).origin);
        await page.goto(link);
        await visible(page.getByRole('heading', { name: 'Set a new password' }));

        await field(page, 'New password').fill(newPassword);
        await field(page, 'Confirm password').fill('Res3tPasswordX');
        await page.getByRole('button', { name: 'Set password' }).click();
        await visible(page.getByText('Password must match', { exact: true }));
        await field(page, 'Confirm password').fill(newPassword);
        await page.getByRole('button', { name: 'Set password' }).click();
        await waitForPath(page, '/dashboard');
        await visible(page.getByRole('heading', { name: 'Welcome, Ada' }));

        // The link works once.
        await page.getByRole('button', { name: 'User menu' }).click();
        await page.getByRole('menuitem', { name: 'Log out' }).click();
        await waitForPath(page, '/login');
        await page.goto(link);
        await field(page, 'New password').fill('An0therPassword');
        await field(page, 'Confirm password').fill('An0therPassword');
        await page.getByRole('button', { name: 'Set password' }).click();
        await visible(notice(page, 'alert', 'This reset link is invalid or has expired'));
      });
      // The new password signs in; the old one does not.
      expect((await system.api('POST', '/login', { body: { email, password: newPassword } })).status).toBe(200);
      expect((await system.api('POST', '/login', { body: { email, password: PASSWORD } })).status).toBe(401);
    },
    TEST_MS,
  );
});
