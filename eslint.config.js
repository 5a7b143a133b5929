// Lint for the whole monorepo: zero warnings allowed (`eslint --max-warnings 0`).
// Boundaries: a service may import only its own code, `@ledgerline/platform` and `@ledgerline/proto`;
// frontends may import only `@ledgerline/ui` and `@ledgerline/api` besides their own code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync, readFileSync, existsSync } from 'node:fs';

const dirs = (root) =>
  existsSync(root)
    ? readdirSync(root, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];
const services = dirs('services').filter((s) => s !== 'platform' && s !== 'sandboxes');
const sandboxes = dirs('services/sandboxes');
const frontends = dirs('frontends');
const sharedFrontends = new Set(['ui', 'api']);

// Relative paths into another service. The gateway's folders are named after the services it calls (src/ledger/,
// src/identity/: issue #14), so there a relative path is refused only where it enters a service's src/ or test/.
const relativeInto = (own, s) =>
  own === 'gateway' ? [1, 2, 3, 4].flatMap((n) => ['src', 'test'].map((dir) => `${'../'.repeat(n)}${s}/${dir}/**`)) : [`../../${s}/**`, `../${s}/**`];

const serviceBoundary = (own) => ({
  files: [`services/${own}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...services
            .filter((s) => s !== own)
            .map((s) => ({
              group: [`@ledgerline/${s}`, `@ledgerline/${s}/*`, `**/services/${s}/**`, ...relativeInto(own, s)],
              message: `A service never imports another service's code (${own} → ${s}); talk over RPC or events from proto/.`,
            })),
          ...sandboxes.map((s) => ({
            group: [`@ledgerline/${s}`, `**/sandboxes/${s}/**`],
            message: 'Services reach sandboxes over their wire protocol only.',
          })),
          { group: frontends.map((f) => `@ledgerline/${f}`), message: 'Services never import frontend code.' },
        ],
      },
    ],
  },
});

const frontendBoundary = (own) => ({
  files: [`frontends/${own}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...frontends
            .filter((f) => f !== own && !sharedFrontends.has(f))
            .map((f) => ({
              group: [`@ledgerline/${f}`, `@ledgerline/${f}/*`, `**/frontends/${f}/**`],
              message: 'Remotes and the shell share code only through @ledgerline/ui and @ledgerline/api; load pages through Module Federation.',
            })),
          {
            group: ['@ledgerline/platform', '@ledgerline/platform/*', ...services.map((s) => `@ledgerline/${s}`)],
            message: 'Frontends never import service code.',
          },
        ],
      },
    ],
  },
});

// Layers inside a service (rpc → usecases → domain, store beside): `domain/` is pure (no store, rpc,
// events, database, bus, network or file system), `rpc/` reaches the database only through use cases
// (a store row type may be named: types carry no I/O), `usecases/` reach the database through `store/`.
// A rule of its own (typescript-eslint's, for `allowTypeImports`) so it adds to the boundary rule above.
const IO_MODULES = [
  'knex',
  'knex/*',
  'pg',
  'pg/*',
  'nats',
  'nats/*',
  'ioredis',
  'node:fs',
  'node:fs/*',
  'fs',
  'fs/*',
  'node:net',
  'net',
  'node:http',
  'http',
  'node:https',
  'https',
  'node:http2',
  'http2',
  'node:dgram',
  'node:child_process',
  'child_process',
  '@connectrpc/*',
];
const PLATFORM_IO = [
  'Knex',
  'createDb',
  'withTenant',
  'withSystem',
  'withDatabase',
  'withUser',
  'writeEvent',
  'writeEvents',
  'publishEvent',
  'startConsumer',
  'connectBus',
  'NatsEventBus',
  'MemoryEventBus',
  'OutboxRelay',
  'createServiceServer',
  'createServiceClient',
  'createWorkQueue',
  'defineService',
];
/** Relative imports of a sibling folder of the layer (`../store/x.js`, also from one folder deeper). */
const sibling = (...names) => names.flatMap((n) => [`../${n}`, `../${n}/**`, `../../${n}`, `../../${n}/**`]);
const layerRules = (own) => [
  {
    files: [`services/${own}/src/domain/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@ledgerline/platform',
              importNames: PLATFORM_IO,
              message: 'domain/ is pure: no database, bus or server from the platform; pass data in from a use case.',
            },
          ],
          patterns: [
            {
              group: sibling('store', 'rpc', 'events', 'usecases', 'plaid', 'mail'),
              message: 'domain/ is pure: it imports no store, rpc, events, use cases or outside clients.',
            },
            { group: IO_MODULES, message: 'domain/ is pure: no database, bus, network or file system.' },
          ],
        },
      ],
    },
  },
  {
    files: [`services/${own}/src/rpc/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: sibling('store'), allowTypeImports: true, message: 'rpc/ calls use cases, never the store.' },
            { group: ['knex', 'knex/*', 'pg', 'pg/*'], message: 'rpc/ calls use cases, never the database.' },
          ],
        },
      ],
    },
  },
  {
    files: [`services/${own}/src/usecases/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['knex', 'knex/*', 'pg', 'pg/*'], message: 'usecases/ reach the database through store/ functions.' }],
        },
      ],
    },
  },
];

// No bare event-name strings: an event is named by `EventType` from the platform's catalog, the one place
// that spells the names (services/platform/src/events/catalog.ts).
const catalogSource = existsSync('services/platform/src/events/catalog.ts') ? readFileSync('services/platform/src/events/catalog.ts', 'utf8') : '';
const eventNames = [...(catalogSource.match(/export const EventType = \{([\s\S]*?)\} as const/)?.[1] ?? '').matchAll(/:\s*'([^']+)'/g)].map((m) => m[1]);
const eventNameRe = `/^(${eventNames.map((n) => n.replace(/[.]/g, '\\.')).join('|')})$/`;
const EVENT_NAME_MESSAGE = 'Name an event by EventType from the catalog (@ledgerline/platform), not by a string.';
const bareEventNameSelectors =
  eventNames.length === 0
    ? []
    : [
        { selector: `Literal[value=${eventNameRe}]`, message: EVENT_NAME_MESSAGE },
        { selector: `TemplateElement[value.raw=${eventNameRe}]`, message: EVENT_NAME_MESSAGE },
      ];
// Use cases call store functions only: no query builder on a transaction or pool, no raw statement.
// (One rule name for both checks: a later `no-restricted-syntax` for the same files replaces an earlier one.)
const QUERY_MESSAGE = 'usecases/ call store/ functions; a query (knex builder or raw SQL) belongs in a named function in store/.';
const querySelectors = [
  { selector: "CallExpression[callee.type='Identifier'][callee.name=/^(trx|tx|db|knex)$/]", message: QUERY_MESSAGE },
  { selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='raw']", message: QUERY_MESSAGE },
];
const eventAndQueryRules = [
  {
    files: ['services/*/src/**/*.ts'],
    ignores: ['services/platform/src/events/catalog.ts'],
    rules: { 'no-restricted-syntax': ['error', ...bareEventNameSelectors] },
  },
  {
    files: ['services/*/src/usecases/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...bareEventNameSelectors, ...querySelectors] },
  },
];

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
  ...services.flatMap(layerRules),
  ...eventAndQueryRules,
);
