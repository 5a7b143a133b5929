// k6 scenarios of writes mixed with report reads (issue #23, item 6) for a deployed environment, read from the
// same definitions the local runner uses (load-tests/scenarios/mixed.json): every scenario runs at once with its
// virtual users; a missed threshold fails the run (at most 0.1 % failed requests, reads' p99 ≤ 200 ms).
// Run (see load-tests/README.md):
//   k6 run -e BASE_URL=https://api.example.com -e TOKEN=<session token> -e WORKSPACE_ID=<id> load-tests/k6/mixed.js
// The workspace needs editable bank transactions (the writes categorise, split and bulk-update them: use a
// staging copy, never a customer's books). SECONDS overrides the scenarios' duration.
/* global open -- k6's init-context file reader */
import http from 'k6/http';
import { check, fail } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:4000';
const config = JSON.parse(open('../scenarios/mixed.json'));
const SECONDS = Number(__ENV.SECONDS || config.seconds);

const scenarios = {};
const thresholds = { http_req_failed: [`rate<=${config.thresholds.errorRate}`] };
for (const s of config.scenarios) {
  scenarios[s.id] = {
    executor: 'constant-vus',
    vus: s.connections,
    duration: `${SECONDS}s`,
    exec: s.kind === 'read' ? 'read' : s.id,
    env: { SCENARIO_ID: s.id },
    gracefulStop: '5s',
  };
  if (s.kind === 'read') thresholds[`http_req_duration{scenario:${s.id}}`] = [`p(99)<=${config.thresholds.readP99}`];
}
export const options = { scenarios, thresholds, setupTimeout: '120s' };

const json = (res) => (res.status === 200 ? res.json() : null);

/** What a user may edit (spec platform-core §4): not a transfer, split, accrual, opening balance, finalized or linked. */
const editable = (t) =>
  t.category &&
  t.category.type !== 'Transfer' &&
  !t.isSplittedParent &&
  !t.isSplittedChildren &&
  !t.isAccruedParent &&
  !t.isAccruedChildren &&
  !t.isOpeningBalance &&
  !t.isTransactionFinalized &&
  t.entityType === null &&
  Math.abs(Math.round(t.amount * 100)) >= 2;

export function setup() {
  if (!__ENV.TOKEN || !__ENV.WORKSPACE_ID) fail('pass TOKEN and WORKSPACE_ID');
  const headers = { authorization: `Bearer ${__ENV.TOKEN}`, 'x-workspace-id': __ENV.WORKSPACE_ID, 'content-type': 'application/json' };
  const cats = json(http.get(`${BASE_URL}/categories`, { headers }));
  if (!cats) fail('GET /categories failed');
  const byName = (name) => {
    const c = cats.categories.find((x) => x.name === name);
    if (!c) fail(`no category ${name}`);
    return c.id;
  };
  const txns = [];
  for (let page = 1; page <= 200; page++) {
    const r = json(http.get(`${BASE_URL}/transactions/v2?take=100&page=${page}`, { headers }));
    if (!r) break;
    txns.push(...r.data.filter(editable).map((t) => ({ id: t.id, amount: t.amount })));
    if (r.data.length < 100) break;
  }
  const third = Math.floor(txns.length / 3);
  const bulk = config.scenarios.find((s) => s.id === 'bulk_update');
  const paths = {};
  for (const s of config.scenarios.filter((x) => x.kind === 'read'))
    paths[s.id] = s.paths.map((p) => p.replace('{busiestAccount}', byName('Cash and Cash Equivalents')));
  return {
    headers,
    paths,
    targets: [byName('Office Supplies'), byName('Software and Subscriptions')],
    batch: (bulk && bulk.batch) || 25,
    pools: { categorise: txns.slice(0, third), bulk: txns.slice(third, 2 * third), split: txns.slice(2 * third) },
  };
}

export function read(data) {
  const paths = data.paths[__ENV.SCENARIO_ID];
  const res = http.get(`${BASE_URL}${paths[__ITER % paths.length]}`, { headers: data.headers, tags: { name: __ENV.SCENARIO_ID } });
  check(res, { 'status 200': (r) => r.status === 200 });
}

export function categorise(data) {
  const pool = data.pools.categorise;
  if (pool.length === 0) return;
  const t = pool[__ITER % pool.length];
  const body = JSON.stringify({ categoryId: data.targets[Math.floor(__ITER / pool.length) % 2] });
  check(http.patch(`${BASE_URL}/transactions/${t.id}`, body, { headers: data.headers, tags: { name: 'categorise' } }), {
    'status 200': (r) => r.status === 200,
  });
}

export function bulk_update(data) {
  const pool = data.pools.bulk;
  if (pool.length === 0) return;
  const start = (__ITER * data.batch) % Math.max(1, pool.length - data.batch);
  const categoryId = data.targets[__ITER % 2];
  const body = JSON.stringify({ transactions: pool.slice(start, start + data.batch).map((t) => ({ id: t.id, categoryId })) });
  check(http.patch(`${BASE_URL}/transactions`, body, { headers: data.headers, tags: { name: 'bulk_update' } }), { 'status 200': (r) => r.status === 200 });
}

export function split(data) {
  // One virtual user splits each transaction of its pool once; then it has nothing left to do.
  const t = data.pools.split[__ITER];
  if (!t) return;
  const total = Math.abs(Math.round(t.amount * 100));
  const half = Math.floor(total / 2);
  const body = JSON.stringify({
    parentTransaction: { id: t.id, amount: half / 100, categoryId: data.targets[0] },
    splitTransactions: [{ amount: (total - half) / 100, categoryId: data.targets[1] }],
  });
  check(http.post(`${BASE_URL}/transactions/split`, body, { headers: data.headers, tags: { name: 'split' } }), { 'status 200': (r) => r.status === 200 });
}
