// What the browser tests share: one Chromium per file, a fresh context per test, and waits on what a user
// sees (a URL, a heading, a message) rather than on time.
import { expectEventually } from '@ledgerline/platform/testing';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchBrowser } from '../../frontends/shell/test/browser.js';
import { currentMailboxUrl, onboardBody, PASSWORD, signedUpUser, startSystem, type ApiAnswer, type System } from '../support/system.js';

export { launchBrowser };

/** How long a step may take before the test says which one hung (generous: CI machines run suites side by side). */
export const STEP_MS = 20_000;
/** A whole test: a few seconds on an idle machine, but a busy one slows every step at once. */
export const TEST_MS = 90_000;

/** The real stack with the built shell and settings remote. */
export async function startWebSystem(): Promise<System & { webUrl: string }> {
  const system = await startSystem({
    web: true,
    gatewayEnv: {
      // Generous limits: these files sign in a few times from one machine; limits are tested in tests/api.
      RATE_LIMIT_LOGIN_MAX: '1000',
      RATE_LIMIT_CODE_MAX: '1000',
      // Sign-up and login hash with argon2id; on a machine busy with other suites that alone can pass the
      // gateway's 1.5 s deadline and answer 503. The deadline has its own tests in tests/api/gateway.test.ts.
      IDENTITY_TIMEOUT_MS: '15000',
    },
  });
  if (system.webUrl === null) {
    await system.stop();
    throw new Error('startSystem({ web: true }) served no web app');
  }
  return { ...system, webUrl: system.webUrl };
}

/** The calls each page made (not its static files), for the report of a failed step. */
const callLogs = new WeakMap<Page, string[]>();

/** A fresh browser profile (no storage shared with other tests) with the app's origin as base URL. */
export async function openPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(STEP_MS);
  const page = await context.newPage();
  // The app's own errors explain a failing step better than a timeout does.
  page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
  const calls: string[] = [];
  callLogs.set(page, calls);
  const isCall = (url: string) => !/\/static\/|\.(?:js|css|svg|ico)$/.test(new URL(url).pathname);
  page.on('response', (response) => {
    if (isCall(response.url())) calls.push(`${response.request().method()} ${response.url()} → ${response.status()}`);
  });
  page.on('requestfailed', (request) => {
    if (isCall(request.url())) calls.push(`${request.method()} ${request.url()} → ${request.failure()?.errorText ?? 'failed'}`);
  });
  page.on('console', (message) => {
    // Chromium logs every 4xx answer as "Failed to load resource"; the tests provoke those on purpose.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) console.error(`[browser console] ${message.text()}`);
  });
  return { context, page };
}

/**
 * Runs `steps` in a fresh browser profile. When a step fails, the error also says where the page was and
 * what it showed (its accessibility tree), which is what a timeout alone never tells.
 */
export async function inFreshPage(browser: Browser, baseURL: string, steps: (page: Page) => Promise<void>): Promise<void> {
  const { context, page } = await openPage(browser, baseURL);
  try {
    await steps(page);
  } catch (error) {
    if (error instanceof Error) error.message += await pageReport(page);
    throw error;
  } finally {
    await context.close();
  }
}

async function pageReport(page: Page): Promise<string> {
  const shown = await page
    .locator('body')
    .ariaSnapshot({ timeout: 2_000 })
    .catch(() => '(not readable)');
  const calls = (callLogs.get(page) ?? []).slice(-15).join('\n');
  return `\n\nThe page at ${page.url()} showed:\n${shown}\n\nIts last calls:\n${calls || '(none)'}`;
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
      .map((id: string) => element.ownerDocument.getElementById(id)?.textContent?.trim() ?? '')
      .join(' '),
  );
}

/** A notice the app shows (role alert for errors and warnings, status for the rest) with exactly `text`. */
export function notice(page: Page, role: 'alert' | 'status', text: string): Locator {
  // The newest: two actions in a row can show the same message twice before the first one fades.
  return page
    .getByRole(role)
    .filter({ has: page.getByText(text, { exact: true }) })
    .last();
}

/** A text input by its accessible name (the label without the required mark), as assistive technology finds it. */
export const field = (page: Page, name: string): Locator => page.getByRole('textbox', { name, exact: true });

/** The sign-in codes mailed to `email`, newest first, from the sandbox mailbox. */
export async function mailedCodes(email: string, mailboxUrl = currentMailboxUrl): Promise<string[]> {
  if (!mailboxUrl) throw new Error('no system started: no mailbox to read codes from');
  const res = await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(email.toLowerCase())}`);
  return ((await res.json()) as Array<{ subject: string }>)
    .map((m) => /^(\d{6}) is your Ledgerline verification code/.exec(m.subject)?.[1])
    .filter((c): c is string => c !== undefined);
}

/** Waits for a code mailed after `before` codes were there; the newest. */
export async function nextMailedCode(email: string, before: number): Promise<string> {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    const codes = await mailedCodes(email);
    if (codes.length > before && codes[0]) return codes[0];
    if (Date.now() > deadline) throw new Error(`no new code mailed to ${email} (had ${before})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Logs in through the login form. A fresh browser context is a device this user has not verified, so
 * the code step follows (decision 0006): the helper reads the code from the sandbox mailbox and enters
 * it, as a user would, which also makes this context a trusted device for later logins.
 */
export async function logInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  const before = (await mailedCodes(email)).length;
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  // The login answers: signed in (the guard leaves /login), a code step (/verify-otp), or an error notice
  // the caller checks (the page stays on /login).
  const outcome = await Promise.race([
    page.waitForURL((url) => url.pathname !== '/login', { timeout: STEP_MS }).then(() => 'moved' as const),
    page
      .getByRole('alert')
      .first()
      .waitFor({ timeout: STEP_MS })
      .then(() => 'alert' as const),
  ]).catch(() => 'timeout' as const);
  if (outcome !== 'moved' || new URL(page.url()).pathname !== '/verify-otp') return;
  const code = await nextMailedCode(email, before);
  await field(page, 'Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL((url) => url.pathname !== '/verify-otp', { timeout: STEP_MS });
}

/**
 * The real stack with the ledger, banking and the Plaid sandbox behind the built web app (shell + remotes), for
 * the screens of the books. Limits as in startWebSystem; a link books its transactions entry by entry, which on a
 * busy machine can pass the production service deadline.
 */
export async function startLedgerWebSystem(
  options: { reporting?: boolean; documents?: boolean } = {},
): Promise<System & { webUrl: string; plaid: NonNullable<System['plaid']> }> {
  const system = await startSystem({
    web: true,
    banking: true,
    ledger: true,
    reporting: options.reporting ?? false,
    // The transaction drawer's receipts are uploads of the documents service (with the S3 sandbox; it calls parties).
    documents: options.documents ?? false,
    parties: options.documents ?? false,
    gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000', SERVICE_TIMEOUT_MS: '15000' },
  });
  if (system.webUrl === null || system.plaid === null) {
    await system.stop();
    throw new Error('startSystem({ web, banking, ledger }) served no web app or no Plaid sandbox');
  }
  return { ...system, webUrl: system.webUrl, plaid: system.plaid };
}

/**
 * Links a First Platypus Bank item of the Plaid sandbox with `count` generated transactions through the gateway
 * (as the link flow's POST /accounts does) and waits until banking synced them and the ledger booked every one.
 * Returns how many the ledger lists. `workspace` links it in that workspace (a firm's client) instead of the user's default.
 */
export async function importBankTransactions(
  system: System & { plaid: NonNullable<System['plaid']> },
  token: string,
  count: number,
  seed = 7,
  workspace?: string,
): Promise<number> {
  const PLATYPUS = 'ins_109508';
  const publicToken = system.plaid.createPublicToken({
    institution_id: PLATYPUS,
    initial_products: ['transactions'],
    options: { ledgerline: { transactions: count, seed, initial_webhook: false } },
  });
  const item = system.plaid.listItems().at(-1);
  const institution = system.plaid.institutions().find((i) => i.institutionId === PLATYPUS);
  if (!item || !institution) throw new Error('the Plaid sandbox made no item');
  const accounts = item.accounts.map((a) => ({
    id: a.account_id,
    name: a.name,
    mask: a.mask,
    type: a.subtype === 'credit card' ? 'credit' : 'depository',
    subtype: a.subtype,
  }));
  const linked = await system.api('POST', '/accounts', {
    token,
    workspace,
    body: { publicToken, accounts, institution: { name: institution.name, institution_id: institution.institutionId } },
  });
  if (linked.status !== 200) throw new Error(`POST /accounts answered ${linked.status}: ${JSON.stringify(linked.body)}`);
  return expectEventually(
    async () => {
      const jobs = await system.api('GET', '/jobs', { token, workspace });
      const busy = (jobs.body?.jobs ?? []).some((j: { status: string }) => ['waiting', 'delayed', 'active'].includes(j.status));
      const bank = await system.api('GET', '/bank-transactions?take=1', { token, workspace });
      const ledger = await system.api('GET', '/transactions/v2?take=1', { token, workspace });
      const banked = bank.body?.meta?.total as number | undefined;
      if (busy || banked === undefined || banked === 0 || ledger.body?.meta?.itemCount !== banked) {
        throw new Error(
          `the ledger did not book the sandbox's transactions in time (banked ${banked}, booked ${ledger.body?.meta?.itemCount}; jobs: ${JSON.stringify(jobs.body)})`,
        );
      }
      return banked;
    },
    { timeoutMs: 90_000, intervalMs: 250 },
  );
}

/**
 * The real stack with the built web app and the ledger. Banking does not run: tests publish its events
 * (bank_account.linked, bank_transaction.added) on `system.bus`, as tests/api/ledger.harness.ts does.
 */
export async function startLedgerOnlyWebSystem(): Promise<System & { webUrl: string }> {
  const system = await startSystem({
    web: true,
    ledger: true,
    // As in startWebSystem, plus the ledger's service deadline: posting on a busy machine can pass 3 s.
    gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000', SERVICE_TIMEOUT_MS: '15000' },
  });
  if (system.webUrl === null) {
    await system.stop();
    throw new Error('startSystem({ web: true, ledger: true }) served no web app');
  }
  return { ...system, webUrl: system.webUrl };
}

/**
 * The real stack for workspaces and firms: the built web app with banking (and the Plaid sandbox), the ledger and the
 * firm service. Limits as in startLedgerWebSystem.
 */
export async function startFirmWebSystem(): Promise<System & { webUrl: string; plaid: NonNullable<System['plaid']> }> {
  const system = await startSystem({
    web: true,
    banking: true,
    ledger: true,
    firm: true,
    gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000', SERVICE_TIMEOUT_MS: '15000' },
  });
  if (system.webUrl === null || system.plaid === null) {
    await system.stop();
    throw new Error('startSystem({ web, banking, ledger, firm }) served no web app or no Plaid sandbox');
  }
  return { ...system, webUrl: system.webUrl, plaid: system.plaid };
}

/** A started stack with its one user: signed up, onboarded, with bank transactions booked. */
export interface PartiesWebSession {
  system: System & { webUrl: string; plaid: NonNullable<System['plaid']> };
  email: string;
  token: string;
  workspace: string;
  /** Calls the gateway as the user, in their workspace. */
  api(method: string, path: string, body?: unknown): Promise<ApiAnswer>;
  /** Logs in through the login form at `viewport` and waits for the dashboard. */
  signIn(page: Page, viewport: { width: number; height: number }): Promise<void>;
}

/**
 * The real stack for the screens of vendors, customers and credits: the built web app with banking (and the Plaid
 * sandbox), the ledger and the parties service (reporting and documents too when asked); one user signed up and onboarded, with
 * `transactions` bank transactions of the sandbox booked (importBankTransactions). Limits as in startLedgerWebSystem,
 * and a global rate limit these files do not reach.
 */
export async function startPartiesWebSession(options: { transactions: number; reporting?: boolean; documents?: boolean }): Promise<PartiesWebSession> {
  const started = await startSystem({
    web: true,
    banking: true,
    ledger: true,
    reporting: options.reporting ?? false,
    parties: true,
    documents: options.documents ?? false,
    gatewayEnv: {
      RATE_LIMIT_GLOBAL_MAX: '100000',
      RATE_LIMIT_LOGIN_MAX: '1000',
      RATE_LIMIT_CODE_MAX: '1000',
      IDENTITY_TIMEOUT_MS: '15000',
      SERVICE_TIMEOUT_MS: '15000',
    },
  });
  if (started.webUrl === null || started.plaid === null) {
    await started.stop();
    throw new Error('startSystem({ web, banking, ledger, parties }) served no web app or no Plaid sandbox');
  }
  const system = { ...started, webUrl: started.webUrl, plaid: started.plaid };
  const { email, token, user } = await signedUpUser(system);
  const workspace = user.workspace.id;
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  await importBankTransactions(system, token, options.transactions);
  return {
    system,
    email,
    token,
    workspace,
    api: (method, path, body) => system.api(method, path, { token, workspace, body }),
    async signIn(page, viewport) {
      await page.setViewportSize(viewport);
      await logInThroughForm(page, email, PASSWORD);
      await waitForPath(page, '/dashboard');
    },
  };
}

/** An open dialog's panel (the dialog element itself is a zero-size wrapper of fixed layers). */
export const dialogNamed = (page: Page, name: string | RegExp): Locator =>
  page.getByRole('dialog', { name, exact: typeof name === 'string' }).locator('[data-dialog-panel]');

/** The page does not scroll sideways: the document is no wider than the window. */
export async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  // Runs in the page; typed by what it uses, as heldStill is (the benches compile this file for Node).
  const { scroll, client } = await page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return { scroll: root.scrollWidth, client: root.clientWidth };
  });
  expect(scroll, `${where}: the page is ${scroll}px wide in a ${client}px window`).toBeLessThanOrEqual(client);
}

/** The locator's box lies inside the window (a dialog), or only inside its width (`vertically: false`: a long table). */
export async function expectInsideWindow(page: Page, locator: Locator, what: string, { vertically = true } = {}): Promise<void> {
  const viewport = page.viewportSize()!;
  await expect
    .poll(
      async () => {
        const b = await locator.boundingBox();
        return b !== null && b.x >= -0.5 && b.x + b.width <= viewport.width + 0.5 && (!vertically || (b.y >= -0.5 && b.y + b.height <= viewport.height + 0.5));
      },
      { message: `${what} inside the ${viewport.width}×${viewport.height} window`, timeout: 5_000 },
    )
    .toBe(true);
}

/**
 * Logs in through the login form already on screen (keeping its `?next=`), entering the mailed code when the code
 * step follows, as logInThroughForm does.
 */
export async function logInOnThisPage(page: Page, email: string, password: string): Promise<void> {
  await visible(field(page, 'Email'));
  const before = (await mailedCodes(email)).length;
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: STEP_MS });
  if (new URL(page.url()).pathname !== '/verify-otp') return;
  await field(page, 'Verification code').fill(await nextMailedCode(email, before));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL((url) => url.pathname !== '/verify-otp', { timeout: STEP_MS });
}

/** A locator's box, or a failure naming what had none (it is not rendered). */
export async function boxOf(locator: Locator, what: string): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${what} has no box`);
  return box;
}

interface PageElement {
  scrollWidth: number;
  scrollHeight: number;
  getBoundingClientRect(): unknown;
}
interface PageGlobals {
  innerWidth: number;
  requestAnimationFrame(callback: () => void): number;
  document: { documentElement: unknown; getAnimations(): Array<{ playState: string; effect: { getComputedTiming(): { iterations?: number } } | null }> };
}

/**
 * Runs in the page (Playwright sends the function itself; the shell's CSP allows no eval): true when no finite
 * animation or transition is running (a dialog's open transition, a panel sliding in; endless ones such as a spinner
 * do not count) and the box of `element` is the same over two animation frames (a re-render on a media query, a
 * chart's ResizeObserver, floating-ui placing a panel). Given the document's root element it measures the page's
 * scroll size.
 */
async function heldStill(element: PageElement, width: number | null): Promise<boolean> {
  // This file is also compiled for Node (the benches import it): the page's globals, typed by what is used here.
  const page = globalThis as unknown as PageGlobals;
  if (width !== null && page.innerWidth !== width) return false;
  const moving = page.document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
  if (moving) return false;
  const root = element === page.document.documentElement;
  const measure = () => (root ? `${element.scrollWidth}x${element.scrollHeight}` : JSON.stringify(element.getBoundingClientRect()));
  const frame = () => new Promise<void>((done) => page.requestAnimationFrame(() => done()));
  const before = measure();
  await frame();
  await frame();
  return measure() === before;
}

/**
 * After `page.setViewportSize` (or a theme switch): waits until the window has its new width and the page's layout
 * holds still, a measured condition instead of a fixed wait.
 */
export async function settledLayout(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? null;
  await expect.poll(() => page.locator('html').evaluate(heldStill, width), { timeout: STEP_MS, message: 'the page kept moving after the resize' }).toBe(true);
}

/** The box of `locator` once it holds still (an open transition done, a floating panel placed). */
export async function settledBox(locator: Locator, what: string): Promise<{ x: number; y: number; width: number; height: number }> {
  await expect.poll(() => locator.evaluate(heldStill, null), { timeout: STEP_MS, message: `${what} kept moving` }).toBe(true);
  return boxOf(locator, what);
}
