// Lint for the whole monorepo: zero warnings allowed (`eslint --max-warnings 0`).
// Boundaries: a service may import only its own code, `@ledgerline/platform` and `@ledgerline/proto`;
// frontends may import only `@ledgerline/ui` and `@ledgerline/api` besides their own code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync, existsSync } from 'node:fs';

const dirs = (root) => (existsSync(root) ? readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : []);
const services = dirs('services').filter((s) => s !== 'platform' && s !== 'sandboxes');
const sandboxes = dirs('services/sandboxes');
const frontends = dirs('frontends');
const sharedFrontends = new Set(['ui', 'api']);

const serviceBoundary = (own) => ({
  files: [`services/${own}/**/*.ts`],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [
        ...services.filter((s) => s !== own).map((s) => ({ group: [`@ledgerline/${s}`, `@ledgerline/${s}/*`, `**/services/${s}/**`, `../../${s}/**`, `../${s}/**`], message: `A service never imports another service's code (${own} → ${s}); talk over RPC or events from proto/.` })),
        ...sandboxes.map((s) => ({ group: [`@ledgerline/${s}`, `**/sandboxes/${s}/**`], message: 'Services reach sandboxes over their wire protocol only.' })),
        { group: frontends.map((f) => `@ledgerline/${f}`), message: 'Services never import frontend code.' },
      ],
    }],
  },
});

const frontendBoundary = (own) => ({
  files: [`frontends/${own}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [
        ...frontends.filter((f) => f !== own && !sharedFrontends.has(f)).map((f) => ({ group: [`@ledgerline/${f}`, `@ledgerline/${f}/*`, `**/frontends/${f}/**`], message: 'Remotes and the shell share code only through @ledgerline/ui and @ledgerline/api; load pages through Module Federation.' })),
        { group: ['@ledgerline/platform', '@ledgerline/platform/*', ...services.map((s) => `@ledgerline/${s}`)], message: 'Frontends never import service code.' },
      ],
    }],
  },
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/src/gen/**', '**/.data/**', 'charts/*/templates/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['frontends/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  { files: ['scripts/**/*.ts', 'load-tests/**/*.{js,ts}'], rules: { 'no-console': 'off' } },
  // k6 scripts run in k6's runtime, which provides __ENV and __VU.
  { files: ['load-tests/k6/**/*.js'], languageOptions: { globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly' } } },
  ...services.map(serviceBoundary),
  ...frontends.filter((f) => !sharedFrontends.has(f)).map(frontendBoundary),
);
