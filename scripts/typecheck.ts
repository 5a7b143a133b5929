// Type-checks every workspace package with its own tsconfig (frontends use DOM libs, services Node's),
// plus scripts, cross-service tests and chart tests; two at a time, one per core.
import { availableParallelism } from 'node:os';
import { hasTsconfig, workspacePackages } from './lib/workspaces.js';
import { run } from './lib/run.js';

const projects = [...workspacePackages().filter(hasTsconfig).map((pkg) => `${pkg.dir}/tsconfig.json`), 'scripts/tsconfig.json', 'tests/tsconfig.json', 'charts/test/tsconfig.json'];
const tsc = 'node_modules/.bin/tsc';
const queue = [...projects];
const failures: string[] = [];
await Promise.all(
  Array.from({ length: Math.min(2, availableParallelism()) }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      await run(tsc, ['-p', project, '--noEmit']).catch(() => failures.push(project));
    }
  }),
);
if (failures.length > 0) {
  console.error(`typecheck failed in: ${failures.join(', ')}`);
  process.exit(1);
}
console.log(`typecheck: ok (${projects.length} projects)`);
