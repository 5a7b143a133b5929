// `npm test`: every layer, in the order a failure is cheapest to find.
import { REMOTES, SHELL } from '@ledgerline/platform/registry';
import { run, timed } from './lib/run.js';

const step = (label: string, cmd: string, args: string[]) => timed(label, () => run(cmd, args));

const started = Date.now();
await step('generated code is current (buf lint + generate, OpenAPI + client types)', 'npx', ['tsx', 'scripts/check-generated.ts']);
await step('lint (zero warnings)', 'npx', ['eslint', '.', '--max-warnings', '0']);
await step('typecheck', 'npx', ['tsx', 'scripts/typecheck.ts']);
// The browser tests serve the built shell and its remotes.
await step('build the web app', 'npm', ['run', 'build', ...[...REMOTES, SHELL].flatMap((p) => ['-w', p.package])]);
await step('unit, integration, API and browser tests', 'npx', ['vitest', 'run']);
console.log(`\nnpm test: all layers passed in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
