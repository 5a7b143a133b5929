// The /reports screens in real Chromium against identity, the gateway, the ledger and reporting. Banking does not
// run: its events are published on the system's bus as banking publishes them, the ledger books them and reporting
// reads the entries. A user opens the profit and loss, clicks a cell and lands on the ledger lines behind it; when
// the gateway serves the exports, the CSV, Excel and PDF downloads carry the same totals as the screen.
import { mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayBuffer, pdfPages } from '../../services/gateway/test/support/pdf-text.js';
import { bankingFor } from '../../services/ledger/test/support.js';
import { onboardBody, signedUpUser, startSystem, PASSWORD, type System } from '../support/system.js';
import {
  expectInsideWindow,
  expectNoHorizontalScroll,
  inFreshPage,
  launchBrowser,
  logInThroughForm,
  settledLayout,
  TEST_MS,
  visible,
  waitForPath,
} from './support.js';

let system: System & { webUrl: string };
let browser: Browser;

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);

/** The web app with the ledger and reporting behind the gateway (limits as in the other browser files). */
async function startReportsWebSystem(): Promise<System & { webUrl: string }> {
  const started = await startSystem({
    web: true,
    ledger: true,
    reporting: true,
    gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000', SERVICE_TIMEOUT_MS: '15000' },
  });
  if (started.webUrl === null) {
    await started.stop();
    throw new Error('startSystem({ web: true, ledger: true, reporting: true }) served no web app');
  }
  return { ...started, webUrl: started.webUrl };
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [system, browser] = await Promise.all([startReportsWebSystem(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

const pad = (n: number) => String(n).padStart(2, '0');
/** The local calendar day `daysAgo` days back, never before 1 January (the reports open on the year to date). */
function day(daysAgo: number): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo);
  const jan1 = new Date(now.getFullYear(), 0, 1);
  const at = d < jan1 ? jan1 : d;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** The parts of GET /financial-data/profit-loss/v3 this file reads (frontends/api/openapi.json has the whole shape). */
interface ReportRow {
  id: string | null;
  name: string;
  rowType: string;
  total: number;
  children: ReportRow[];
}
interface ProfitLossResponse {
  report: { columns: { label: string; startDate: string; endDate: string }[]; data: ReportRow[] };
}

const flatten = (rows: readonly ReportRow[]): ReportRow[] => rows.flatMap((r) => [r, ...flatten(r.children)]);

interface Books {
  email: string;
  token: string;
  workspaceId: string;
  mealsId: string;
  pnl: ProfitLossResponse;
}

/**
 * An onboarded Owner whose bank account took a client payment and two card purchases this year; the coffee is
 * categorised to Meals and Entertainment. Returns once reporting's profit and loss shows all of it.
 */
async function books(): Promise<Books> {
  const { email, token, user } = await signedUpUser(system);
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  const workspaceId = user.workspace.id;
  const bank = bankingFor(system.bus, workspaceId);
  const accountId = await bank.link({ name: 'Business Checking', mask: '4321' });
  await bank.add(accountId, { amountCents: 250_000, date: day(2), name: 'Client payment' });
  await bank.add(accountId, { amountCents: -4_550, date: day(1), name: 'Coffee Roasters' });
  await bank.add(accountId, { amountCents: -12_025, date: day(0), name: 'Office Depot' });
  const listed = await expectEventually(
    async () => {
      const answer = await system.api('GET', '/transactions/v2?take=10', { token, workspace: workspaceId });
      expect(answer.body?.meta?.itemCount).toBe(3);
      return answer.body.data as { id: string }[];
    },
    { timeoutMs: 20_000 },
  );
  const categories = await system.api('GET', '/categories', { token, workspace: workspaceId });
  const meals = (categories.body.categories as { id: string; name: string }[]).find((c) => c.name === 'Meals and Entertainment');
  const coffee = listed.find((t) => JSON.stringify(t).includes('Coffee Roasters'));
  if (!meals || !coffee) throw new Error('no Meals and Entertainment account or no coffee transaction');
  const categorised = await system.api('PATCH', `/transactions/${coffee.id}`, { token, workspace: workspaceId, body: { categoryId: meals.id } });
  expect(categorised.status).toBe(200);

  // Reporting reads the ledger's entries asynchronously: wait until its P&L shows the payment and the categorised coffee
  // (a minute: on a machine busy with other suites the three bookings took over 30 s to reach the read model).
  const pnl = await expectEventually(
    async () => {
      const answer = await system.api(
        'GET',
        `/financial-data/profit-loss/v3?startDate=${day(0).slice(0, 4)}-01-01&endDate=${day(0)}&periodicity=monthly&excludeZeroes=true`,
        { token, workspace: workspaceId },
      );
      expect(answer.status).toBe(200);
      const report = answer.body as ProfitLossResponse;
      const rows = flatten(report.report.data);
      expect(rows.find((r) => r.id === meals.id)?.total).toBe(45.5);
      expect(rows.find((r) => r.rowType === 'summary' && r.name === 'Net Income')?.total).toBe(2_334.25);
      return report;
    },
    { timeoutMs: 60_000 },
  );
  return { email, token, workspaceId, mealsId: meals.id, pnl };
}

async function signIn(page: Page, email: string): Promise<void> {
  await logInThroughForm(page, email, PASSWORD);
  await waitForPath(page, '/dashboard');
}

// The exports are tested once the gateway serves them (its OpenAPI document lists every route it has).
const openApiPaths = (JSON.parse(readFileSync(new URL('../../frontends/api/openapi.json', import.meta.url), 'utf8')) as { paths: Record<string, unknown> })
  .paths;
const pnlExportsServed = ['csv', 'xlsx', 'pdf'].every((format) => `/income-expense/${format}` in openApiPaths);

describe('reports screens', () => {
  it(
    'shows the profit and loss by month and opens the ledger lines behind a cell',
    async () => {
      const { email, mealsId, pnl } = await books();
      // The month column that holds the coffee (day(1)).
      const column = pnl.report.columns.find((c) => c.startDate <= day(1) && day(1) <= c.endDate);
      if (!column) throw new Error(`no column holds ${day(1)}: ${JSON.stringify(pnl.report.columns)}`);

      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page, email);
        await page.goto('/reports?tab=pnl');
        const table = await visible(page.getByRole('table', { name: 'Profit and loss' }));
        // The spec §3 defaults: breakdown Monthly, zero amounts hidden.
        expect(await (await visible(page.getByRole('button', { name: /Breakdown/ }))).textContent()).toContain('Monthly');
        expect(await page.getByRole('checkbox', { name: 'Hide zero amounts' }).isChecked()).toBe(true);

        // Net Income's total and the accounts booked, each amount with 2 decimals in USD.
        const netIncome = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Net Income', exact: true }) });
        expect((await netIncome.getByRole('cell').last().textContent())?.trim()).toBe('$2,334.25');
        await visible(table.getByRole('rowheader', { name: /Uncategorised Income/ }));
        // Zero amounts hidden: turning that off brings back the chart's accounts with nothing booked.
        const shown = await table.getByRole('row').count();
        await page.getByRole('checkbox', { name: 'Hide zero amounts' }).uncheck();
        await expectEventually(async () => expect(await table.getByRole('row').count()).toBeGreaterThan(shown));
        await page.getByRole('checkbox', { name: 'Hide zero amounts' }).check();
        await expectEventually(async () => expect(await table.getByRole('row').count()).toBe(shown));

        // The Meals and Entertainment cell of the coffee's month opens that account's ledger for that month.
        const cell = table.getByRole('link', { name: `Open the ledger of Meals and Entertainment for ${column.label}: $45.50`, exact: true });
        await visible(cell);
        await cell.click();
        await page.waitForURL((url) => url.pathname === '/accounting' && url.searchParams.get('tab') === 'ledger');
        const url = new URL(page.url());
        expect(Object.fromEntries(url.searchParams)).toEqual({ tab: 'ledger', ledgerAccount: mealsId, startDate: column.startDate, endDate: column.endDate });
        const lines = await visible(page.getByRole('table', { name: 'Ledger lines' }));
        const coffee = lines.getByRole('row').filter({ hasText: 'Coffee Roasters' });
        await visible(coffee);
        expect((await coffee.getByRole('cell').allTextContents()).map((c) => c.trim())).toContain('$45.50');
        expect(await lines.getByText('Office Depot').count()).toBe(0);

        // Back on the report, the balance sheet's total assets are the bank's balance.
        await page.goBack();
        await visible(page.getByRole('table', { name: 'Profit and loss' }));
        await page.getByRole('tab', { name: 'Balance Sheet' }).click();
        await page.waitForURL((u) => u.searchParams.get('tab') === 'balancesheet');
        const sheet = await visible(page.getByRole('table', { name: 'Balance sheet' }));
        const assets = sheet.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Total Assets', exact: true }) });
        expect((await assets.getByRole('cell').last().textContent())?.trim()).toBe('$2,334.25');

        // The cash flow statement reconciles to the bank: the period's net change is the cash at its end.
        await page.getByRole('tab', { name: 'Cashflow Statement' }).click();
        const flows = await visible(page.getByRole('table', { name: 'Cash flow statement' }));
        const total = async (name: string) =>
          (
            await flows
              .getByRole('row')
              .filter({ has: page.getByRole('rowheader', { name, exact: true }) })
              .getByRole('cell')
              .last()
              .textContent()
          )?.trim();
        expect(await total('Net Change in Cash')).toBe('$2,334.25');
        expect(await total('Cash at End of Period')).toBe('$2,334.25');
        // Its Net Income opens the profit and loss of the period.
        await flows.getByRole('link', { name: /^Open the profit and loss for the period/ }).click();
        await page.waitForURL(
          (u) =>
            u.searchParams.get('tab') === 'pnl' &&
            u.searchParams.get('startDate') === `${day(0).slice(0, 4)}-01-01` &&
            u.searchParams.get('endDate') === day(0),
        );
        await visible(page.getByRole('table', { name: 'Profit and loss' }));
        // The period in the URL stays when the tab changes.
        await page.getByRole('tab', { name: 'Balance Sheet' }).click();
        await page.waitForURL((u) => u.searchParams.get('tab') === 'balancesheet');
        expect(new URL(page.url()).searchParams.get('startDate')).toBe(`${day(0).slice(0, 4)}-01-01`);
        expect(new URL(page.url()).searchParams.get('endDate')).toBe(day(0));
      });
    },
    TEST_MS,
  );

  it(
    'draws the dashboard charts from the books, with spending by category and the top merchants',
    async () => {
      const { email } = await books();
      await inFreshPage(browser, system.webUrl, async (page) => {
        // The report widgets come in one request (GET /dashboard), not one each (issue #13), and it is sent while the
        // reports remote's code loads, not after it: before the remote's first script has answered.
        const config = (await (await fetch(new URL('/config.json', system.webUrl))).json()) as { remotes: { reports: string } };
        const reportsOrigin = new URL(config.remotes.reports).origin;
        const asked: string[] = [];
        const order: string[] = [];
        let reloaded = false;
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (url.pathname === '/dashboard' && request.resourceType() === 'fetch') {
            asked.push('dashboard');
            order.push('GET /dashboard sent');
          }
          if (reloaded && url.pathname === '/users/me') order.push('GET /users/me sent');
          if (url.pathname.startsWith('/financial-data/')) asked.push(url.pathname);
        });
        page.on('response', (response) => {
          const url = new URL(response.url());
          if (url.origin === reportsOrigin && response.request().resourceType() === 'script') order.push(`reports remote ${url.pathname} answered`);
        });
        await signIn(page, email);
        await visible(page.getByRole('heading', { name: 'Financial overview' }));
        const card = (title: string) => page.locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
        // The cash at the last month's end: the bank's balance.
        await visible(card('Cash balance').getByText('$2,334.25', { exact: true }));
        await visible(page.getByRole('img', { name: 'Cash balance by month' }).locator('svg').first());
        await visible(page.getByRole('img', { name: 'Income, expenses and net income by month' }).locator('svg').first());
        await visible(page.getByRole('img', { name: 'Gross and net burn by month' }).locator('svg').first());
        // Runway is over the last complete months, which hold none of this month's transactions.
        await visible(card('Runway').getByText(/^(Not burning cash|Less than a month|More than 8 years|\d+\.\d months?)$/));
        // Spending: the coffee (Meals and Entertainment) and the uncategorised office supplies; top merchants by the bank's names.
        await visible(card('Spending').getByText('$165.75', { exact: true }));
        await visible(page.getByRole('list', { name: 'Spending by category' }).getByText('Meals and Entertainment', { exact: true }));
        const merchants = page.getByRole('table', { name: 'Top merchants' });
        await visible(merchants.getByRole('row').filter({ hasText: 'Office Depot' }).getByRole('cell', { name: '$120.25', exact: true }));
        await visible(merchants.getByRole('row').filter({ hasText: 'Coffee Roasters' }).getByRole('cell', { name: '27.45%', exact: true }));
        expect(asked).toEqual(['dashboard']);
        expect(order[0], `what happened first: ${order.join('; ')}`).toBe('GET /dashboard sent');
        expect(order.length, 'the reports remote sent its scripts').toBeGreaterThan(1);
        // The charts as drawn, at 1440 and at 390 px (no sideways scroll on a phone).
        for (const [size, viewport] of [
          ['desktop', { width: 1440, height: 900 }],
          ['phone', { width: 390, height: 844 }],
        ] as const) {
          await page.setViewportSize(viewport);
          await settledLayout(page);
          await expectNoHorizontalScroll(page, `the dashboard at ${viewport.width}px`);
          await expectInsideWindow(page, card('Profit & Loss'), `the Profit & Loss card at ${viewport.width}px`, { vertically: false });
          await page.screenshot({ path: new URL(`reports-dashboard-${size}.png`, SCREENSHOTS).pathname, fullPage: true });
        }
        await page.setViewportSize({ width: 1280, height: 800 });

        // A reload (a signed-in load of /dashboard) asks for the widgets once, at start-up: before the shell has even
        // asked who is signed in (GET /users/me), and before any of the reports remote's scripts has answered.
        asked.length = 0;
        order.length = 0;
        reloaded = true;
        await page.reload();
        await visible(merchants.getByRole('row').filter({ hasText: 'Office Depot' }));
        await visible(page.getByRole('img', { name: 'Cash balance by month' }).locator('svg').first());
        expect(asked).toEqual(['dashboard']);
        expect(order[0], `after the reload, what happened first: ${order.join('; ')}`).toBe('GET /dashboard sent');
        expect(order, 'the shell asked who is signed in').toContain('GET /users/me sent');
        expect(
          order.some((o) => o.startsWith('reports remote')),
          'the reports remote sent its scripts',
        ).toBe(true);

        // The P&L card's link opens the report for the dashboard's period.
        await page.getByRole('link', { name: 'Profit & Loss', exact: true }).click();
        await page.waitForURL((u) => u.pathname === '/reports' && u.searchParams.get('tab') === 'pnl' && u.searchParams.get('endDate') === day(0));
        await visible(page.getByRole('table', { name: 'Profit and loss' }));
      });
    },
    TEST_MS,
  );

  it.runIf(pnlExportsServed)(
    'downloads the profit and loss as CSV, Excel and PDF with the totals on screen',
    async () => {
      const { email } = await books();
      await inFreshPage(browser, system.webUrl, async (page) => {
        await signIn(page, email);
        await page.goto('/reports?tab=pnl');
        await visible(page.getByRole('table', { name: 'Profit and loss' }));
        const download = async (label: string) => {
          const [file] = await Promise.all([
            page.waitForEvent('download'),
            page.getByRole('group', { name: 'Export' }).getByRole('button', { name: label, exact: true }).click(),
          ]);
          const path = await file.path();
          return { name: file.suggestedFilename(), bytes: await readFile(path) };
        };

        const csv = await download('CSV');
        expect(csv.name).toMatch(/\.csv$/);
        const csvText = csv.bytes.toString('utf8');
        expect(csvText).toMatch(/Net Income[^\n]*2,?334\.25/);
        expect(csvText).toMatch(/Meals and Entertainment[^\n]*45\.50/);

        const xlsx = await download('Excel');
        expect(xlsx.name).toMatch(/\.xlsx$/);
        const { default: ExcelJS } = await import('exceljs');
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(arrayBuffer(xlsx.bytes));
        const numbersOf = (label: string) => {
          const found: number[] = [];
          workbook.worksheets[0]?.eachRow((row) => {
            const values = (row.values as unknown[]).slice(1);
            if (values.some((v) => typeof v === 'string' && v.trim() === label)) found.push(...values.filter((v): v is number => typeof v === 'number'));
          });
          return found;
        };
        expect(numbersOf('Net Income')).toContain(2_334.25);
        expect(numbersOf('Meals and Entertainment')).toContain(45.5);

        const pdf = await download('PDF');
        expect(pdf.name).toMatch(/\.pdf$/);
        // The statement as a reader sees it: each account on its own line with its amount.
        const lines = (await pdfPages(pdf.bytes)).flatMap((p) => p.lines.map((l) => l.text));
        expect(lines.find((l) => l.startsWith('Net Income'))).toContain('2,334.25');
        expect(lines.find((l) => l.includes('Meals and Entertainment'))).toContain('45.50');
      });
    },
    TEST_MS,
  );
});
