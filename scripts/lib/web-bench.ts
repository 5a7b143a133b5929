/// <reference types="node" />
// `npm run bench -- web`: what the built web app costs a browser with a cold cache. Debian's Chromium (playwright-core)
// loads /login signed out and /dashboard as a signed-in, onboarded user with a First Platypus Bank item linked
// through the Plaid sandbox (synced by banking, booked by the ledger, projected by reporting), each in a fresh
// browser context (empty HTTP cache). Bytes come from the DevTools protocol (bytes on the wire per response,
// headers included; cross-origin remotes send no Timing-Allow-Origin, so Resource Timing would read 0 for them).
// Times are measured in the page: performance.now() when /login shows its form, and when every dashboard chart has drawn its SVG and the
// spending and merchant cards their rows.
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { expectEventually } from '@ledgerline/platform/testing';
import { launchBrowser } from '../../frontends/shell/test/browser.js';
import { logInThroughForm } from '../../tests/browser/support.js';
import { onboardBody, PASSWORD, signedUpUser, startSystem, type System } from '../../tests/support/system.js';

/** A link with a bandwidth and a round trip, imposed by Chromium (Network.emulateNetworkConditions). */
export const THROTTLED = { name: '10 Mbit/s, 40 ms RTT', latency: 40, downloadThroughput: 10_000_000 / 8, uploadThroughput: 5_000_000 / 8 } as const;

export interface RouteLoad {
  route: string;
  /** `localhost` or THROTTLED.name. */
  network: string;
  /** `br`, `gzip` or `identity`: what the browser was allowed to accept. */
  encoding: string;
  jsRequests: number;
  /** JavaScript bytes on the wire (compressed when served compressed), headers included. */
  jsTransferred: number;
  /** The same JavaScript decoded (what the engine parses). */
  jsDecoded: number;
  requests: number;
  transferred: number;
  decoded: number;
  /** DOMContentLoaded of the document, ms after navigation start. */
  domContentLoadedMs: number;
  /** ms after navigation start until the page is drawn: /login its form, /dashboard every widget. */
  drawnMs: number;
  /** /dashboard: ms after navigation start when the page sent GET /dashboard (the widgets' batch); null elsewhere. */
  widgetsAskedMs: number | null;
  /** /dashboard: ms after navigation start when that batch's answer had arrived; null elsewhere. */
  widgetsAnsweredMs: number | null;
  /** Responses that were served compressed, by encoding. */
  encodings: Record<string, number>;
}

export interface WebBenchResult {
  transactions: number;
  runs: number;
  throttledRuns: number;
  loads: RouteLoad[];
}

interface Response {
  url: string;
  type: string;
  encoding: string;
  transferred: number;
  decoded: number;
}

/** Records every response of the page through the DevTools protocol until `stop()`. */
async function recordNetwork(cdp: CDPSession): Promise<() => Response[]> {
  const pending = new Map<string, Response>();
  const done: Response[] = [];
  await cdp.send('Network.enable');
  cdp.on('Network.responseReceived', (event) => {
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    pending.set(event.requestId, {
      url: event.response.url,
      type: event.type,
      encoding: headers['content-encoding'] ?? 'identity',
      transferred: 0,
      decoded: 0,
    });
  });
  cdp.on('Network.dataReceived', (event) => {
    const r = pending.get(event.requestId);
    if (r) r.decoded += event.dataLength;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const r = pending.get(event.requestId);
    if (!r) return;
    r.transferred = event.encodedDataLength;
    pending.delete(event.requestId);
    done.push(r);
  });
  return () => [...done];
}

// Runs in the page: the time when every widget of the dashboard is drawn, or false.
const WIDGETS_DRAWN = `(() => {
  const charts = ['Cash balance by month', 'Income, expenses and net income by month', 'Gross and net burn by month'];
  const drawn = charts.every((name) => document.querySelector('[role="img"][aria-label="' + name + '"] svg'))
    && document.querySelector('ul[aria-label="Spending by category"] li')
    && document.querySelector('table[aria-label="Top merchants"] tbody tr');
  return drawn ? performance.now() : false;
})()`;

// Runs in the page: when the widgets' batch (the API's GET /dashboard, not the page itself) was sent and when its
// answer had arrived, or null.
const WIDGETS_ASKED = `(() => {
  const batch = performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname === '/dashboard');
  return batch ? [batch.startTime, batch.responseEnd] : null;
})()`;

/**
 * Links a First Platypus Bank item of the Plaid sandbox with `count` transactions through the gateway (as the link
 * flow's POST /accounts does; tests/browser/support.ts has the same for the browser tests, which this Node program
 * cannot import) and waits until banking synced them and the ledger booked every one.
 */
export async function linkSandboxBank(system: System, token: string, count: number, options: { seed?: number; timeoutMs?: number } = {}): Promise<number> {
  const plaid = system.plaid;
  if (!plaid) throw new Error('the system runs without the Plaid sandbox');
  const PLATYPUS = 'ins_109508';
  const publicToken = plaid.createPublicToken({
    institution_id: PLATYPUS,
    initial_products: ['transactions'],
    options: { ledgerline: { transactions: count, seed: options.seed ?? 13, initial_webhook: false } },
  });
  const item = plaid.listItems().at(-1);
  const institution = plaid.institutions().find((i) => i.institutionId === PLATYPUS);
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
    body: { publicToken, accounts, institution: { name: institution.name, institution_id: institution.institutionId } },
  });
  if (linked.status !== 200) throw new Error(`POST /accounts answered ${linked.status}: ${JSON.stringify(linked.body)}`);
  return expectEventually(
    async () => {
      const jobs = await system.api('GET', '/jobs', { token });
      const busy = (jobs.body?.jobs ?? []).some((j: { status: string }) => ['waiting', 'delayed', 'active'].includes(j.status));
      const banked = (await system.api('GET', '/bank-transactions?take=1', { token })).body?.meta?.total as number | undefined;
      const booked = (await system.api('GET', '/transactions/v2?take=1', { token })).body?.meta?.itemCount as number | undefined;
      if (busy || !banked || booked !== banked)
        throw new Error(`the ledger did not book the sandbox's transactions in time (banked ${banked}, booked ${booked})`);
      return banked;
    },
    { timeoutMs: options.timeoutMs ?? 120_000, intervalMs: 250 },
  );
}

// Runs in the page: the time when the login form can be used, or false.
const LOGIN_DRAWN = `(() => {
  const button = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Log in');
  return button && document.querySelector('input[type="password"]') ? performance.now() : false;
})()`;

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function measureRoute(
  browser: Browser,
  baseURL: string,
  route: string,
  encoding: 'br' | 'gzip' | 'identity',
  storageState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined,
  ready: (page: Page) => Promise<number>,
  throttled = false,
): Promise<RouteLoad> {
  // A fresh context has an empty HTTP cache: every file is fetched.
  // bypassCSP: the shell's CSP forbids eval, which Playwright's waitForFunction needs for the bench's probes; what loads is the same.
  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 }, storageState, bypassCSP: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const responses = await recordNetwork(cdp);
    // Chromium sends "gzip, deflate, br, zstd"; the other rows pin what it may accept (the server's choice only).
    if (encoding !== 'br') await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': encoding } });
    if (throttled)
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: THROTTLED.latency,
        downloadThroughput: THROTTLED.downloadThroughput,
        uploadThroughput: THROTTLED.uploadThroughput,
      });
    await page.goto(route, { waitUntil: 'load' });
    const drawnMs = await ready(page);
    await page.waitForLoadState('networkidle');
    const domContentLoadedMs = (await page.evaluate('performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd')) as number;
    const widgets = (await page.evaluate(WIDGETS_ASKED)) as [number, number] | null;
    const all = responses();
    const js = all.filter((r) => r.type === 'Script' || /\.m?js(\?|$)/.test(new URL(r.url).pathname));
    const encodings: Record<string, number> = {};
    for (const r of all) if (r.encoding !== 'identity') encodings[r.encoding] = (encodings[r.encoding] ?? 0) + 1;
    return {
      route,
      network: throttled ? THROTTLED.name : 'localhost',
      encoding,
      jsRequests: js.length,
      jsTransferred: sum(js.map((r) => r.transferred)),
      jsDecoded: sum(js.map((r) => r.decoded)),
      requests: all.length,
      transferred: sum(all.map((r) => r.transferred)),
      decoded: sum(all.map((r) => r.decoded)),
      domContentLoadedMs: Math.round(domContentLoadedMs),
      drawnMs: Math.round(drawnMs),
      widgetsAskedMs: widgets === null ? null : Math.round(widgets[0]),
      widgetsAnsweredMs: widgets === null ? null : Math.round(widgets[1]),
      encodings,
    };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Measures `runs` cold loads of /login and /dashboard per encoding; returns every load (the caller takes medians). */
export async function benchWeb(options: { transactions: number; runs: number; throttledRuns: number; log?: (line: string) => void }): Promise<WebBenchResult> {
  const log = options.log ?? (() => undefined);
  const system = await startSystem({
    web: true,
    banking: true,
    ledger: true,
    reporting: true,
    gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000', SERVICE_TIMEOUT_MS: '15000' },
  });
  const browser = await launchBrowser();
  try {
    if (system.webUrl === null || system.plaid === null) throw new Error('startSystem served no web app or no Plaid sandbox');
    const webUrl = system.webUrl;
    const { email, token } = await signedUpUser(system);
    const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
    if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}`);
    const booked = await linkSandboxBank(system, token, options.transactions);
    log(`linked a sandbox bank: ${booked} transactions booked`);

    // Sign in once through the form and keep the session (local storage) for the cold dashboard loads.
    const signIn = await browser.newContext({ baseURL: webUrl, bypassCSP: true });
    const page = await signIn.newPage();
    // A new browser is asked for the emailed one-time code (spec §4); the helper reads it from the sandbox mailbox.
    await logInThroughForm(page, email, PASSWORD);
    await page.waitForURL((u) => u.pathname === '/dashboard', { timeout: 30_000 });
    // Reporting projects the books asynchronously: wait until the dashboard has everything to draw.
    await page.waitForFunction(WIDGETS_DRAWN, undefined, { timeout: 90_000, polling: 250 });
    const signedIn = await signIn.storageState();
    await signIn.close();

    const loginReady = async (p: Page) => {
      const drawn = await p.waitForFunction(LOGIN_DRAWN, undefined, { timeout: 30_000, polling: 'raf' });
      return (await drawn.jsonValue()) as number;
    };
    const dashboardReady = async (p: Page) => {
      const drawn = await p.waitForFunction(WIDGETS_DRAWN, undefined, { timeout: 30_000, polling: 'raf' });
      return (await drawn.jsonValue()) as number;
    };
    const loads: RouteLoad[] = [];
    for (const encoding of ['br', 'gzip', 'identity'] as const) {
      for (let run = 0; run < options.runs; run++) {
        const login = await measureRoute(browser, webUrl, '/login', encoding, undefined, loginReady);
        const dashboard = await measureRoute(browser, webUrl, '/dashboard', encoding, signedIn, dashboardReady);
        loads.push(login, dashboard);
        log(
          `${encoding} run ${run + 1}: /login ${login.jsTransferred} B of JS, form drawn at ${login.drawnMs} ms; /dashboard ${dashboard.jsTransferred} B of JS, widgets asked at ${dashboard.widgetsAskedMs} ms, answered at ${dashboard.widgetsAnsweredMs} ms, drawn at ${dashboard.drawnMs} ms`,
        );
      }
    }
    // Where compression pays: the same loads over a link with a bandwidth and a round trip.
    for (const encoding of ['br', 'identity'] as const) {
      for (let run = 0; run < options.throttledRuns; run++) {
        const login = await measureRoute(browser, webUrl, '/login', encoding, undefined, loginReady, true);
        const dashboard = await measureRoute(browser, webUrl, '/dashboard', encoding, signedIn, dashboardReady, true);
        loads.push(login, dashboard);
        log(
          `${encoding} over ${THROTTLED.name}, run ${run + 1}: /login form drawn at ${login.drawnMs} ms; /dashboard widgets drawn at ${dashboard.drawnMs} ms`,
        );
      }
    }
    return { transactions: booked, runs: options.runs, throttledRuns: options.throttledRuns, loads };
  } finally {
    await browser.close();
    await system.stop();
  }
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The report's tables: medians per route and encoding, and the budgets of issue #13. */
export function webReport(result: WebBenchResult): { body: string; summary: Record<string, { jsTransferred: number; transferred: number; drawnMs: number }> } {
  const rows: string[] = [];
  const summary: Record<string, { jsTransferred: number; transferred: number; drawnMs: number }> = {};
  for (const encoding of ['br', 'gzip', 'identity']) {
    for (const route of ['/login', '/dashboard']) {
      const loads = result.loads.filter((l) => l.network === 'localhost' && l.encoding === encoding && l.route === route);
      if (loads.length === 0) continue;
      const m = (pick: (l: RouteLoad) => number) => median(loads.map(pick));
      const drawn = loads.map((l) => l.drawnMs);
      const asked = loads.flatMap((l) => (l.widgetsAskedMs === null ? [] : [l.widgetsAskedMs]));
      const answered = loads.flatMap((l) => (l.widgetsAnsweredMs === null ? [] : [l.widgetsAnsweredMs]));
      const served =
        Object.entries(loads[0]!.encodings)
          .map(([e, n]) => `${n} ${e}`)
          .join(', ') || 'none compressed';
      summary[`${route} ${encoding}`] = { jsTransferred: m((l) => l.jsTransferred), transferred: m((l) => l.transferred), drawnMs: median(drawn) };
      rows.push(
        `| ${route} | ${encoding} | ${m((l) => l.jsRequests)} | **${kB(m((l) => l.jsTransferred))}** | ${kB(m((l) => l.jsDecoded))} | ${m((l) => l.requests)} | ${kB(m((l) => l.transferred))} | ${m((l) => l.domContentLoadedMs)} ms | ${asked.length ? `${median(asked)} ms` : '—'} | ${answered.length ? `${median(answered)} ms` : '—'} | **${median(drawn)} ms** (${drawn.join(', ')}) | ${served} |`,
      );
    }
  }
  const throttledRows: string[] = [];
  for (const encoding of ['br', 'identity']) {
    for (const route of ['/login', '/dashboard']) {
      const loads = result.loads.filter((l) => l.network === THROTTLED.name && l.encoding === encoding && l.route === route);
      if (loads.length === 0) continue;
      const drawn = loads.map((l) => l.drawnMs);
      summary[`${route} ${encoding} throttled`] = {
        jsTransferred: median(loads.map((l) => l.jsTransferred)),
        transferred: median(loads.map((l) => l.transferred)),
        drawnMs: median(drawn),
      };
      throttledRows.push(
        `| ${route} | ${encoding} | ${kB(median(loads.map((l) => l.jsTransferred)))} | ${median(loads.map((l) => l.domContentLoadedMs))} ms | **${median(drawn)} ms** (${drawn.join(', ')}) |`,
      );
    }
  }
  const login = summary['/login br'];
  const dashboard = summary['/dashboard br'];
  const met = (ok: boolean) => (ok ? 'met' : '**not met**');
  const body = [
    `Medians of ${result.runs} cold loads per row (a fresh browser context each: empty HTTP cache). "JS on the wire" is the`,
    'bytes received for every script response, headers included (DevTools protocol, Network.loadingFinished); "decoded" is',
    'what the engine parses. Rows other than br pin the browser\'s Accept-Encoding to show what compression saves. "Drawn"',
    'is performance.now() in the page when /login shows its form, and when /dashboard has drawn every chart (SVG), the',
    'spending list and the top merchants. "Widgets asked" and "answered" are when /dashboard sent its one request for the',
    "widgets (GET /dashboard of the API) and when the answer had arrived: the earlier it is asked, the more of the remote's",
    'code loading it overlaps.',
    '',
    '| route | Accept-Encoding | JS requests | JS on the wire | JS decoded | requests | all on the wire | DOMContentLoaded | widgets asked | answered | drawn (runs) | responses compressed |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...(throttledRows.length
      ? [
          `## Over ${THROTTLED.name} (Chromium's network emulation), medians of ${result.throttledRuns}`,
          '',
          'On localhost bandwidth is free, so compression cannot shorten the time to draw there; over a real link it does.',
          '',
          '| route | Accept-Encoding | JS on the wire | DOMContentLoaded | drawn (runs) |',
          '|---|---|---|---|---|',
          ...throttledRows,
          '',
        ]
      : []),
    '## Budgets (issue #13)',
    '',
    '| budget | measured (br) | |',
    '|---|---|---|',
    login ? `| shell first load (/login) ≤ 200 kB of compressed JavaScript | ${kB(login.jsTransferred)} | ${met(login.jsTransferred <= 200_000)} |` : '',
    dashboard ? `| dashboard drawn ≤ 1.5 s cold on localhost | ${dashboard.drawnMs} ms | ${met(dashboard.drawnMs <= 1500)} |` : '',
  ].join('\n');
  return { body, summary };
}
