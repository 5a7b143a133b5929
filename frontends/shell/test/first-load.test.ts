/// <reference types="node" />
// Issue #13's budget: a signed-out first visit (/login, and the other public pages) fetches at most 200 kB of
// compressed JavaScript. Measured on the production build (npm run build -w each frontend) in Chromium with an empty
// cache, bytes on the wire per script as the server sends them; `npm run bench -- bundle` writes the same figures with
// every chunk named.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser';
import { FIRST_LOAD_BUDGET_BYTES, PUBLIC_PAGES, measurePage, serveBuiltApp, type FirstLoadServers } from './first-load';

let servers: FirstLoadServers;
let browser: Browser;

beforeAll(async () => {
  servers = await serveBuiltApp();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await servers?.close();
});

/** A cold load on a machine busy with other suites: the drawn form may take many seconds, the bytes do not change. */
const PAGE_MS = 60_000;

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

describe('first load of the shell', () => {
  for (const { route, drawn } of PUBLIC_PAGES) {
    for (const encoding of ['br', 'gzip'] as const) {
      it(
        `${route} (${encoding}) stays within ${kB(FIRST_LOAD_BUDGET_BYTES)} of compressed JavaScript`,
        async () => {
          const load = await measurePage(browser, servers.webUrl, route, drawn, encoding);
          // Every script arrived compressed as asked, so the sum is what the budget speaks of.
          expect(load.scripts.length).toBeGreaterThan(3);
          expect(load.scripts.filter((s) => s.encoding !== encoding)).toEqual([]);
          const biggest = [...load.scripts]
            .sort((a, b) => b.bodyBytes - a.bodyBytes)
            .slice(0, 5)
            .map((s) => `${new URL(s.url).pathname} ${kB(s.bodyBytes)}`);
          expect(load.jsBytes, `${route} fetched ${kB(load.jsBytes)} of JavaScript; the biggest: ${biggest.join(', ')}`).toBeLessThanOrEqual(
            FIRST_LOAD_BUDGET_BYTES,
          );
        },
        PAGE_MS,
      );
    }
  }

  it(
    '/login fetches neither Headless UI nor the dashboard',
    async () => {
      const load = await measurePage(browser, servers.webUrl, '/login', PUBLIC_PAGES[0]!.drawn);
      const page = await browser.newPage();
      try {
        const sources = await Promise.all(load.scripts.map(async (s) => (await page.request.get(s.url)).text()));
        // Headless UI's components name themselves in their data attributes and ids; the dashboard offers to connect accounts.
        expect(sources.filter((source) => source.includes('headlessui-combobox'))).toEqual([]);
        expect(sources.filter((source) => source.includes('Connect accounts'))).toEqual([]);
      } finally {
        await page.close();
      }
    },
    PAGE_MS,
  );
});
