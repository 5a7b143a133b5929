// k6 scenarios of the reports (issue #5) for a deployed environment, read from the same definitions the
// local runner uses (load-tests/scenarios/reporting.json): each runs after the previous one with its
// number of virtual users, and a missed threshold fails the run.
// Run (see load-tests/README.md):
//   k6 run -e BASE_URL=https://api.example.com -e EMAIL=... -e PASSWORD=... load-tests/k6/reporting.js
//   k6 run -e BASE_URL=... -e TOKEN=<session token> -e WORKSPACE_ID=<id> [-e ACCOUNT_ID=<ledger account>] load-tests/k6/reporting.js
// TIME_SCALE multiplies every scenario's duration (e.g. 6 for a minute each).
/* global open -- k6's init-context file reader */
import http from 'k6/http';
import { check } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:4000';
const TIME_SCALE = Number(__ENV.TIME_SCALE || 1);
const config = JSON.parse(open('../scenarios/reporting.json'));
// Scenarios marked "caches": "off" measure a deployment started with the report caches off: CACHES=off runs only those.
const CACHES = __ENV.CACHES || 'on';
const selected = config.scenarios.filter((s) => (s.caches || 'on') === CACHES);

const scenarios = {};
const thresholds = { http_req_failed: ['rate<0.01'], checks: ['rate>0.99'] };
let startAt = 0;
for (const s of selected) {
  const seconds = Math.max(1, Math.round(s.seconds * TIME_SCALE));
  scenarios[s.id] = {
    executor: 'constant-vus',
    vus: s.connections,
    duration: `${seconds}s`,
    startTime: `${startAt}s`,
    exec: 'report',
    env: { SCENARIO_ID: s.id },
    gracefulStop: '5s',
  };
  // The next scenario starts once this one (and its graceful stop) is over, so they never overlap.
  startAt += seconds + 5;
  const latency = [];
  if (s.thresholds.p50 !== undefined) latency.push(`p(50)<${s.thresholds.p50}`);
  if (s.thresholds.p99 !== undefined) latency.push(`p(99)<${s.thresholds.p99}`);
  if (latency.length > 0) thresholds[`http_req_duration{scenario:${s.id}}`] = latency;
  // k6's rate of a counter is over the whole test; over this scenario's own duration, a rate is a count.
  if (s.thresholds.rps !== undefined) thresholds[`http_reqs{scenario:${s.id}}`] = [`count>=${s.thresholds.rps * seconds}`];
}

export const options = { scenarios, thresholds, setupTimeout: '60s' };

const json = (res) => (res.status === 200 ? res.json() : null);

export function setup() {
  let token = __ENV.TOKEN;
  let workspaceId = __ENV.WORKSPACE_ID;
  if (!token) {
    const res = http.post(`${BASE_URL}/login`, JSON.stringify({ email: __ENV.EMAIL, password: __ENV.PASSWORD }), {
      headers: { 'content-type': 'application/json' },
    });
    const body = json(res);
    // A user whose sign-in asks for a mailed code cannot be used here: pass TOKEN instead.
    if (!check(res, { 'signed in': (r) => r.status === 200 && !!body && !!body.user })) throw new Error(`login answered ${res.status}`);
    token = body.sessionToken;
    workspaceId = workspaceId || body.user.workspace.id;
  }
  const headers = { authorization: `Bearer ${token}`, 'x-workspace-id': workspaceId };
  let account = __ENV.ACCOUNT_ID;
  if (!account) {
    // The generated data set books every income and expense against cash: its busiest account.
    const cats = json(http.get(`${BASE_URL}/categories`, { headers }));
    const cash = cats && cats.categories.find((c) => c.name === 'Cash and Cash Equivalents');
    if (!cash) throw new Error('no Cash and Cash Equivalents account: pass ACCOUNT_ID');
    account = cash.id;
  }
  const first = json(http.get(`${BASE_URL}/ledger/get-ledger-transactions?ledgerAccountId=${account}&take=${config.glTake}&page=1`, { headers }));
  const lastPage = first && first.meta ? Math.max(1, first.meta.pageCount) : 1;
  const items = first && first.meta ? first.meta.itemCount : 0;
  const vars = {
    busiestAccount: account,
    middlePage: String(Math.max(1, Math.ceil(lastPage / 2))),
    lastPage: String(lastPage),
    middlePageMax: String(Math.max(1, Math.ceil(items / 100 / 2))),
  };
  const paths = {};
  for (const s of selected) paths[s.id] = s.paths.map((p) => p.replace(/\{(\w+)\}/g, (_, k) => vars[k] || `{${k}}`));
  return { headers, paths };
}

export function report(data) {
  const paths = data.paths[__ENV.SCENARIO_ID];
  const res = http.get(`${BASE_URL}${paths[__ITER % paths.length]}`, { headers: data.headers, tags: { name: __ENV.SCENARIO_ID } });
  check(res, { 'status 200': (r) => r.status === 200 });
}
