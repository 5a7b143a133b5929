// Generated code is checked in: regenerate it and fail if anything differs (CI runs this).
import { execSync } from 'node:child_process';
import { run } from './lib/run.js';

const GENERATED = ['proto/src/gen', 'frontends/api/openapi.json', 'frontends/api/src/gen'];

await run('npm', ['run', 'gen', '-w', '@ledgerline/proto']);
await run('npx', ['tsx', '--conditions=ledgerline-source', 'scripts/gen-openapi.ts']);
const diff = execSync(`git status --porcelain -- ${GENERATED.join(' ')}`, { encoding: 'utf8' }).trim();
if (diff) {
  console.error(`Generated code is out of date; run \`npm run gen\` and commit:\n${diff}`);
  process.exit(1);
}
console.log('generated code: up to date');
