// k6 scenario for a deployed environment: the session check every API call pays, and password sign-in.
// Run: k6 run -e BASE_URL=https://api.example.com -e EMAIL=... -e PASSWORD=... load-tests/k6/identity.js
// The same scenarios run locally (where k6 is not installed) through `npm run bench` (scripts/bench.ts).
import http from 'k6/http';
import { check } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:4000';

export const options = {
  scenarios: {
    session_check: { executor: 'constant-vus', vus: 8, duration: '30s', exec: 'me' },
    sign_in: { executor: 'constant-vus', vus: 2, duration: '30s', exec: 'login', startTime: '30s' },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{scenario:session_check}': ['p(99)<50'],
    'http_req_duration{scenario:sign_in}': ['p(99)<500'],
  },
};

export function setup() {
  const res = http.post(`${BASE_URL}/login`, JSON.stringify({ email: __ENV.EMAIL, password: __ENV.PASSWORD }), {
    headers: { 'content-type': 'application/json' },
  });
  check(res, { 'signed in': (r) => r.status === 200 && !!r.json('user') });
  return { token: res.json('sessionToken') };
}

export function me(data) {
  const res = http.get(`${BASE_URL}/users/me`, { headers: { authorization: `Bearer ${data.token}` } });
  check(res, { 'me 200': (r) => r.status === 200 });
}

export function login() {
  const res = http.post(`${BASE_URL}/login`, JSON.stringify({ email: __ENV.EMAIL, password: __ENV.PASSWORD }), {
    headers: { 'content-type': 'application/json' },
  });
  check(res, { 'login 200': (r) => r.status === 200 });
}
