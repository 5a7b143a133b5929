// `npm test`: every layer, in the order a failure is cheapest to find. `npm test -- api browser` runs only
// the named test layers (after the checks and, for the browser layer, the web build); `npm test -- --list`
// names them. The layers are the vitest projects of vitest.config.ts.
import { REMOTES, SHELL } from '@ledgerline/platform/registry';
import { run, timed } from './lib/run.js';

const LAYERS = {
  packages: "each package's own tests: services, web packages, charts and scripts",
  api: 'API tests: the REST contract through the gateway, every service running',
  dist: 'API tests of the whole product against the built services, each its own process (as the images run them)',
  browser: 'browser tests: the built web app in Chromium',
} as const;
type Layer = keyof typeof LAYERS;

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const [name, what] of Object.entries(LAYERS)) console.log(`${name.padEnd(9)} ${what}`);
  process.exit(0);
}
const unknown = args.filter((a) => !(a in LAYERS));
if (unknown.length > 0) {
  console.error(`npm test: unknown layer ${unknown.join(', ')}; the layers are ${Object.keys(LAYERS).join(', ')}`);
  process.exit(2);
}
const chosen = (args.length > 0 ? args : Object.keys(LAYERS)) as Layer[];
const all = args.length === 0;

const step = (label: string, cmd: string, args: string[]) => timed(label, () => run(cmd, args));

const started = Date.now();
if (all) {
  await step('generated code is current (buf lint + generate, OpenAPI + client types)', 'npx', ['tsx', 'scripts/check-generated.ts']);
  await step('lint (zero warnings)', 'npx', ['eslint', '.', '--max-warnings', '0']);
  await step('format (Prettier: npm run format)', 'npm', ['run', 'format:check', '--silent']);
  await step('typecheck', 'npx', ['tsx', 'scripts/typecheck.ts']);
}
// The browser tests (and the first-load budget among the packages' tests) serve the built shell and its remotes.
if (chosen.includes('browser') || chosen.includes('packages')) {
  await step('build the web app', 'npm', ['run', 'build', ...[...REMOTES, SHELL].flatMap((p) => ['-w', p.package])]);
}
// The dist layer runs each service's and the gateway's built `dist/main.js`.
if (chosen.includes('dist')) await step('build the services', 'npm', ['run', 'build:services']);
for (const layer of chosen) await step(`${layer}: ${LAYERS[layer]}`, 'npx', ['vitest', 'run', '--project', layer]);
console.log(`\nnpm test: ${all ? 'all layers' : chosen.join(', ')} passed in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
