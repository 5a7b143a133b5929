// `npm run bench`: measured figures, written with the machine and the data size to bench-results/.
// Identity and the gateway for now: the session check every API call pays, and a password sign-in.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, type as osType, release } from 'node:os';
import { measure, type LoadResult } from './lib/load.js';
import { signedUpUser, startSystem } from '../tests/support/system.js';

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${osType()} ${release()}, Node ${process.version}`;
const system = await startSystem({ gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '10000000', RATE_LIMIT_LOGIN_MAX: '10000000', RATE_LIMIT_CODE_MAX: '10000000', SESSION_CACHE_TTL_MS: '3000' } });
const results: LoadResult[] = [];
try {
  const users: Array<Awaited<ReturnType<typeof signedUpUser>>> = [];
  for (let n = 0; n < 20; n++) users.push(await signedUpUser(system));
  const me = (token: string) => async () => (await system.api('GET', '/users/me', { token })).status === 200;
  let i = 0;
  const anyUser = async () => me(users[i++ % users.length]!.token)();
  results.push(await measure({ name: 'GET /users/me (session cached at the gateway)', connections: 1, seconds: 8, send: anyUser }));
  results.push(await measure({ name: 'GET /users/me (session cached at the gateway)', connections: 8, seconds: 8, send: anyUser }));
  const login = async () => (await system.api('POST', '/login', { body: { email: users[i++ % users.length]!.email, password: 'Sup3rSecret' } })).status === 200;
  results.push(await measure({ name: 'POST /login (argon2id verify, new session)', connections: 2, seconds: 8, send: login, warmup: 4 }));
} finally {
  await system.stop();
}

const table = [
  '| scenario | connections | requests | errors | req/s | p50 ms | p90 ms | p99 ms |',
  '|---|---|---|---|---|---|---|---|',
  ...results.map((r) => `| ${r.name} | ${r.connections} | ${r.requests} | ${r.errors} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} |`),
].join('\n');
const report = `# Identity through the gateway\n\nMeasured ${new Date().toISOString().slice(0, 10)} on ${machine}.\nData: 20 signed-up users in a fresh identity database; the gateway, identity, PostgreSQL and NATS on the same machine; the load runner in the same process (scripts/lib/load.ts).\n\n${table}\n`;
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/identity.md', report);
writeFileSync('bench-results/identity.json', `${JSON.stringify({ machine, results }, null, 2)}\n`);
console.log(report);
