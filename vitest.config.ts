import { defineConfig } from 'vitest/config';

// One runner for every layer. Service tests create their own database per file, so files can run in
// parallel; two workers match the two cores we plan for.
export default defineConfig({
  resolve: { conditions: ['ledgerline-source'] },
  ssr: { resolve: { conditions: ['ledgerline-source'], externalConditions: ['ledgerline-source'] } },
  test: {
    include: ['services/**/test/**/*.test.ts', 'frontends/**/test/**/*.test.ts', 'charts/test/**/*.test.ts', 'scripts/test/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
