// `npm test`: every layer, in the order a failure is cheapest to find.
import { run, timed } from './lib/run.js';

const step = (label: string, cmd: string, args: string[]) => timed(label, () => run(cmd, args));

await step('generated code is current (buf lint + generate)', 'npx', ['tsx', 'scripts/check-generated.ts']);
await step('lint (zero warnings)', 'npx', ['eslint', '.', '--max-warnings', '0']);
await step('typecheck', 'npx', ['tsx', 'scripts/typecheck.ts']);
await step('unit, integration, contract and browser tests', 'npx', ['vitest', 'run']);
