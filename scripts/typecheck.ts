// Type-checks everything in three programs, two at a time (one per core): the Node code (services,
// proto, scripts, chart tests), the frontends (DOM, JSX), and the cross-service tests (Node + DOM for
// code that runs in the browser page). Shared sources are checked once per program, not once per package.
import { availableParallelism } from 'node:os';
import { run } from './lib/run.js';

const projects = ['tsconfig.node.json', 'tsconfig.web.json', 'tests/tsconfig.json'];
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
