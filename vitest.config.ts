import { defineConfig } from 'vitest/config';

/**
 * One runner, three layers (vitest projects), each runnable alone:
 * - `packages`: every package's own tests (services/*, frontends/*, charts, scripts): pure rules, a service
 *   against its own database, a web package's logic;
 * - `api`: tests/api, the REST contract through the gateway with every service running;
 * - `browser`: tests/browser, the built web app in Chromium against the whole stack.
 * `npm test` runs them in that order (scripts/test.ts); `npm test -- api` runs one. Service tests create their
 * own database per file, so files run in parallel; two workers match the two cores we plan for.
 */
const shared = {
  exclude: ['**/node_modules/**', '**/dist/**'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  resolve: { conditions: ['ledgerline-source'] },
  ssr: { resolve: { conditions: ['ledgerline-source'], externalConditions: ['ledgerline-source'] } },
  test: {
    pool: 'forks',
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
      { extends: true, test: { ...shared, name: 'browser', include: ['tests/browser/**/*.test.ts'] } },
    ],
  },
});
