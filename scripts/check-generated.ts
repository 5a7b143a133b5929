// Generated code is checked in: regenerate it and fail if anything differs (CI runs this).
import { execSync } from 'node:child_process';
import { run } from './lib/run.js';

await run('npm', ['run', 'gen', '-w', '@ledgerline/proto']);
const diff = execSync('git status --porcelain -- proto/src/gen', { encoding: 'utf8' }).trim();
if (diff) {
  console.error(`Generated protobuf code is out of date; run \`npm run gen\` and commit:\n${diff}`);
  process.exit(1);
}
console.log('generated code: up to date');
