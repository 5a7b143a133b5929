// Type-checks every workspace package with its own tsconfig (frontends use DOM libs, services Node's).
import { hasTsconfig, workspacePackages } from './lib/workspaces.js';
import { run } from './lib/run.js';

for (const pkg of workspacePackages().filter(hasTsconfig)) {
  await run('npx', ['tsc', '-p', `${pkg.dir}/tsconfig.json`, '--noEmit']);
}
await run('npx', ['tsc', '-p', 'scripts/tsconfig.json', '--noEmit']);
await run('npx', ['tsc', '-p', 'tests/tsconfig.json', '--noEmit']);
await run('npx', ['tsc', '-p', 'charts/test/tsconfig.json', '--noEmit']);
console.log('typecheck: ok');
