import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * One runner, four layers (vitest projects), each runnable alone:
 * - `packages`: every package's own tests (services/*, frontends/*, charts, scripts): pure rules, a service
 *   against its own database, a web package's logic;
 * - `api`: tests/api, the REST contract through the gateway with every service running;
 * - `dist`: a part of the api tests again, every service and the gateway run from its built `dist/` as its own process;
 * - `browser`: tests/browser, the built web app in Chromium against the whole stack.
 * `npm test` runs them in that order (scripts/test.ts); `npm test -- api` runs one. Service tests create their
 * own database per file, so files run in parallel; two workers match the two cores we plan for.
 */
const shared = {
  exclude: ['**/node_modules/**', '**/dist/**'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

/**
 * The API tests the `dist` layer runs again against the built services (see below): the books tied to the bank
 * through every service, and every service's routes probed across two tenants. The chaos tests (tests/chaos) also
 * read the P&L and the balance sheet, so reporting and the firm's routes are covered there without more files.
 */
export const DIST_TESTS = ['tests/api/bank-tieout.test.ts', 'tests/api/two-tenant.test.ts'];

/**
 * The slowest files of each layer, slowest first (measured: `npx vitest run --project <layer> --reporter=json`).
 * They start first, so the two workers finish together instead of one of them running a long file alone at the end
 * of the layer. Vitest orders by its own cache of durations, which a clean checkout (CI) does not have.
 */
export const SLOW_FIRST = [
  'scripts/test/generators.test.ts',
  'services/documents/test/reading-corpus.test.ts',
  'services/identity/test/identity.test.ts',
  'services/gateway/test/schema-compile.test.ts',
  'services/ledger/test/bulk-update.test.ts',
  'services/ledger/test/general-ledger.test.ts',
  'services/ledger/test/books.property.test.ts',
  'services/ledger/test/tieout.property.test.ts',
  'tests/api/reporting-concurrent-writers.test.ts',
  'tests/api/books-property.test.ts',
  'tests/api/auth-hygiene.test.ts',
  'tests/api/bad-input.test.ts',
  'tests/api/reporting-crash.test.ts',
  'tests/api/documents-property.test.ts',
  'tests/api/banking-crash.test.ts',
  'tests/api/reporting-property.test.ts',
  'tests/chaos/chaos.test.ts',
  'tests/chaos/import-crash.test.ts',
  'tests/api/two-tenant.test.ts',
  'tests/browser/transactions.test.ts',
  'tests/browser/workspaces.test.ts',
  'tests/browser/banking.test.ts',
  'tests/browser/teams.test.ts',
  'tests/browser/parties-journey.test.ts',
  'tests/browser/document-payments.test.ts',
  'tests/browser/vendors.test.ts',
  'tests/browser/documents-journey.test.ts',
  'tests/browser/accounting.test.ts',
];

/** Vitest's order (failed first, then longest first by its cache), with the files of SLOW_FIRST ahead of the rest. */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.indexOf(relative(process.cwd(), f.moduleId).split('\\').join('/'));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

export default defineConfig({
  resolve: { conditions: ['ledgerline-source'] },
  ssr: { resolve: { conditions: ['ledgerline-source'], externalConditions: ['ledgerline-source'] } },
  test: {
    pool: 'forks',
    sequence: { sequencer: SlowFirstSequencer },
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: 'packages',
          include: ['services/**/test/**/*.test.ts', 'frontends/**/test/**/*.test.ts', 'charts/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
        },
      },
      { extends: true, test: { ...shared, name: 'api', include: ['tests/api/**/*.test.ts'] } },
      // The same API tests of the whole product, against every service and the gateway built (`dist/`) and run as
      // separate processes, as the images run them (scripts/lib/service-process.ts). Only tests that start the
      // product through tests/support/system.ts and reach it only over the network (not the gateway's 1.5 s deadline
      // tests: a cold process under load misses it). Two files at a time, as the other layers: each starts nine
      // processes (about 1.5 GB together); the chaos tests measure their outage windows, so another file's load
      // lengthens the windows rather than failing them.
      {
        extends: true,
        test: { ...shared, name: 'dist', include: [...DIST_TESTS, 'tests/chaos/**/*.test.ts'], env: { LEDGERLINE_STACK: 'dist' }, hookTimeout: 180_000 },
      },
      { extends: true, test: { ...shared, name: 'browser', include: ['tests/browser/**/*.test.ts'] } },
    ],
  },
});
