// The settings remote in real Chromium: loaded by the shell through Module Federation from its own server,
// saving the profile and changing the password against the real gateway and identity, and the shell's
// visible fallback (with a working retry) when the remote's server cannot be reached.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, type System } from '../support/system.js';
import { field, inFreshPage, launchBrowser, logInThroughForm, notice, startWebSystem, TEST_MS, visible, waitForPath } from './support.js';

let system: System & { webUrl: string; settingsUrl: string };
let browser: Browser;

beforeAll(async () => {
  const [started, launched] = await Promise.all([startWebSystem(), launchBrowser()]);
  browser = launched;
  if (started.settingsUrl === null) throw new Error('the settings remote is not served');
  system = { ...started, settingsUrl: started.settingsUrl };
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

/** An onboarded user made through the API (the journey test covers doing it in the browser). */
async function onboardedUser(): Promise<{ email: string; token: string }> {
  const { email, token } = await signedUpUser(system);
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  return { email, token };
}

/** Logs in and opens Settings from the user menu, as a user finds it. */
async function openSettings(page: Page, email: string, password = PASSWORD): Promise<void> {
  await logInThroughForm(page, email, password);
  await waitForPath(page, '/dashboard');
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await waitForPath(page, '/settings');
}

/** Files the browser fetched from the settings remote's own server. */
function remoteRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('requestfinished', (request) => {
    if (request.url().startsWith(system.settingsUrl)) urls.push(new URL(request.url()).pathname);
  });
  return urls;
}

describe('the settings remote', () => {
  it(
    'loads through Module Federation and saves the name with PATCH users/me; a reload shows the new name',
    async () => {
      const { email } = await onboardedUser();
      await inFreshPage(browser, system.webUrl, async (page) => {
        const fromRemote = remoteRequests(page);
        const patches: string[] = [];
        page.on('request', (request) => {
          if (request.method() === 'PATCH') patches.push(request.url());
        });
        await openSettings(page, email);

        await visible(page.getByRole('heading', { name: 'Settings', level: 1 }));
        expect(fromRemote).toContain('/mf-manifest.json');
        expect(fromRemote.some((path) => /^\/static\/js\/.*\.js$/.test(path))).toBe(true);

        // The profile tab starts from the signed-in user (the shell's session, shared with the remote).
        await visible(page.getByRole('tab', { name: 'Profile', selected: true }));
        expect(await field(page, 'First Name').inputValue()).toBe('Ada');
        expect(await field(page, 'Last Name').inputValue()).toBe('Lovelace');
        expect(await field(page, 'Email').inputValue()).toBe(email);

        // An emptied name is refused in the form with the spec's message.
        await field(page, 'First Name').fill('');
        await page.getByRole('button', { name: 'Save profile' }).click();
        await visible(page.getByText('First Name is required', { exact: true }));
        expect(patches).toEqual([]);

        await field(page, 'First Name').fill('Augusta');
        await field(page, 'Last Name').fill('King');
        await page.getByRole('button', { name: 'Save profile' }).click();
        await visible(notice(page, 'status', 'Your profile has been updated.'));
        expect(patches).toEqual([`${system.gatewayUrl}/users/me`]);
        // The shell shows the new name at once: the remote handed the user back through the shared api context.
        await visible(page.getByRole('button', { name: 'User menu' }).getByText('Augusta King'));

        await page.reload();
        await visible(page.getByRole('heading', { name: 'Settings', level: 1 }));
        expect(await field(page, 'First Name').inputValue()).toBe('Augusta');
        expect(await field(page, 'Last Name').inputValue()).toBe('King');

        // In a fresh browser the name comes from the server, not from this tab's storage.
        await inFreshPage(browser, system.webUrl, async (other) => {
          await openSettings(other, email);
          await visible(other.getByRole('heading', { name: 'Settings', level: 1 }));
          expect(await field(other, 'First Name').inputValue()).toBe('Augusta');
        });
      });
    },
    TEST_MS,
  );

  it(
    'changes the password: a wrong current one is refused, other devices are signed out, then only the new one logs in',
    async () => {
      const { email } = await onboardedUser();
      const newPassword = 'N3wPassword!';
      await inFreshPage(browser, system.webUrl, async (page) => {
        // The same user on another device.
        await inFreshPage(browser, system.webUrl, async (other) => {
          await logInThroughForm(other, email, PASSWORD);
          await waitForPath(other, '/dashboard');

          await openSettings(page, email);
          await page.getByRole('tab', { name: 'Security' }).click();
          await waitForPath(page, '/settings');
          expect(new URL(page.url()).searchParams.get('tab')).toBe('security');

          // Client-side rules first.
          await page.getByRole('button', { name: 'Update password' }).click();
          await visible(page.getByText('Current password is required', { exact: true }));
          await field(page, 'Current password').fill('Wr0ngPassword');
          await field(page, 'New password').fill(newPassword);
          await field(page, 'Confirm new password').fill('something else');
          await visible(page.getByText('Password must match', { exact: true }));
          // The rules identity applies, shown at the field before anything is sent.
          await field(page, 'New password').fill('short');
          await visible(page.getByText('Password must have atleast 8 characters', { exact: true }));
          await field(page, 'New password').fill('alllowercase1');
          await visible(page.getByText('Must contain at least one uppercase letter, one lowercase letter, and one number', { exact: true }));
          await field(page, 'New password').fill(newPassword);

          // A wrong current password: identity's message.
          await field(page, 'Confirm new password').fill(newPassword);
          await page.getByRole('button', { name: 'Update password' }).click();
          await visible(notice(page, 'alert', 'Existing password is incorrect'));

          await field(page, 'Current password').fill(PASSWORD);
          await page.getByRole('checkbox', { name: 'Sign out of other devices' }).check();
          await page.getByRole('button', { name: 'Update password' }).click();
          await visible(notice(page, 'status', 'Your password has been updated.'));
          // The form empties after a change.
          expect(await field(page, 'Current password').inputValue()).toBe('');

          // The other device's next call answers 401: 'Session expired' (spec §8) and back to log in.
          await other.reload();
          await visible(notice(other, 'alert', 'Session expired'));
          await waitForPath(other, '/login');

          // Still signed in here; log out and back in to prove which password works now.
          await page.reload();
          await visible(page.getByRole('heading', { name: 'Settings', level: 1 }));
          await page.getByRole('button', { name: 'User menu' }).click();
          await page.getByRole('menuitem', { name: 'Log out' }).click();
          await waitForPath(page, '/login');

          await logInThroughForm(page, email, PASSWORD);
          await visible(notice(page, 'alert', 'Invalid email or password'));
          expect(new URL(page.url()).pathname).toBe('/login');

          await logInThroughForm(page, email, newPassword);
          await waitForPath(page, '/dashboard');
          await visible(page.getByRole('heading', { name: 'Welcome, Ada' }));
        });
      });
    },
    TEST_MS,
  );

  it(
    'shows a visible fallback with a retry when the remote cannot be reached, and loads on retry once it can',
    async () => {
      const { email } = await onboardedUser();
      await inFreshPage(browser, system.webUrl, async (page) => {
        // The remote's server is unreachable: every connection to it is refused.
        const unreachable = `${system.settingsUrl}/**`;
        await page.route(unreachable, (route) => route.abort('connectionrefused'));
        await openSettings(page, email);

        await visible(page.getByRole('heading', { name: 'Settings could not be loaded' }));
        await visible(page.getByText('This part of Ledgerline is served separately and did not answer.', { exact: false }));
        // The rest of the app keeps working around it.
        await visible(page.getByRole('navigation', { name: 'Main' }));

        // Retrying while it is still down goes back to the network and fails the same visible way.
        const retried = page.waitForRequest((request) => request.url().startsWith(system.settingsUrl));
        await page.getByRole('button', { name: 'Retry' }).click();
        await retried;
        await visible(page.getByRole('heading', { name: 'Settings could not be loaded' }));

        // Back up: a retry loads the page without reloading the app.
        await page.unroute(unreachable);
        await page.getByRole('button', { name: 'Retry' }).click();
        await visible(page.getByRole('heading', { name: 'Settings', level: 1 }));
        expect(await field(page, 'First Name').inputValue()).toBe('Ada');

        // Other pages are unaffected by the remote's outage.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
        await waitForPath(page, '/dashboard');
        await visible(page.getByRole('heading', { name: 'Welcome, Ada' }));
      });
    },
    TEST_MS,
  );
});
