// One trace follows a sign-up from the gateway to identity, through the outbox and NATS, to a consumer:
// each runs as its own process with the platform's OpenTelemetry setup, exporting to a local collector.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { platformMigrations } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { identityMigrations } from '@ledgerline/identity';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/stack.js';
import { signUpBody, uniqueEmail } from '../support/system.js';

interface CollectedSpan {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
}

interface OtlpJson {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<{ name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string }> }>;
  }>;
}

const spans: CollectedSpan[] = [];
const children: ChildProcess[] = [];
let collector: Server;
let identityDb: TestDatabase;
let consumerDb: TestDatabase;
let namespace: string;
let gatewayUrl: string;
const consumed: string[] = [];

/** An OTLP/HTTP JSON receiver: what an OpenTelemetry collector would get. */
function startCollector(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const doc = JSON.parse(body || '{}') as OtlpJson;
      for (const rs of doc.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '?';
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({ service, name: s.name, kind: s.kind, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '' });
      }
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

function startProcess(service: string, entry: string, env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  // Node itself with tsx as a loader (not `npx tsx`, whose node grandchild outlived a SIGTERM to npx and kept running
  // after the file).
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=ledgerline-source', '--import', '@ledgerline/platform/instrumentation', entry], {
    env: { ...process.env, OTEL_SERVICE_NAME: service, OTEL_BSP_SCHEDULE_DELAY: '100', NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      for (const m of d.toString().matchAll(/consumed (\S+)/g)) consumed.push(m[1]!);
      if (ready.test(out)) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`${service} exited with ${code}:\n${out.slice(-2000)}`)));
  });
}

beforeAll(async () => {
  const [collectorPort, identityPort, gatewayPort] = await Promise.all([freePort(), freePort(), freePort()]);
  collector = await startCollector(collectorPort);
  identityDb = await createTestDatabase('identity', identityMigrations);
  consumerDb = await createTestDatabase('consumer', platformMigrations);
  // A namespace of our own on the shared NATS server; the bus object only creates and later deletes it.
  const bus = await createTestBus('tracing');
  namespace = bus.namespace;
  const common = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', NATS_NAMESPACE: namespace };
  await Promise.all([
    startProcess(
      'identity',
      'services/identity/src/main.ts',
      { ...common, IDENTITY_PORT: String(identityPort), IDENTITY_DATABASE_URL: identityDb.appUrl, OTP_RESEND_SECONDS: '0' },
      /identity listening/,
    ),
    startProcess(
      'gateway',
      'services/gateway/src/main.ts',
      { ...common, GATEWAY_PORT: String(gatewayPort), IDENTITY_URL: `http://127.0.0.1:${identityPort}` },
      /gateway listening/,
    ),
    startProcess('consumer', 'tests/support/trace-consumer.ts', { ...common, CONSUMER_DATABASE_URL: consumerDb.appUrl }, /ready/),
  ]);
  gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  afterAllBus = bus;
}, 90_000);

let afterAllBus: Awaited<ReturnType<typeof createTestBus>> | undefined;

afterAll(async () => {
  for (const child of children) {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
  }
  await Promise.all(children.map((c) => (c.exitCode === null ? once(c, 'exit') : undefined)));
  await afterAllBus?.close();
  await identityDb?.drop();
  await consumerDb?.drop();
  await new Promise<void>((r) => (collector ? collector.close(() => r()) : r()));
});

it('follows a sign-up: gateway → identity → NATS → consumer, in one trace', async () => {
  const res = await fetch(`${gatewayUrl}/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(signUpBody(uniqueEmail('traced'))),
  });
  expect(res.status).toBe(201);

  const consumerSpan = await expectEventually(
    () => {
      const span = spans.find((s) => s.service === 'consumer' && s.name === 'consume user.signed_up');
      expect(span).toBeDefined();
      return span!;
    },
    { timeoutMs: 20_000 },
  );
  expect(consumed).toHaveLength(1);
  const trace = await expectEventually(
    () => {
      const inTrace = spans.filter((s) => s.traceId === consumerSpan.traceId);
      expect(new Set(inTrace.map((s) => s.service))).toEqual(new Set(['gateway', 'identity', 'consumer']));
      // The consumer's span hangs below a span of that same trace (spans arrive in batches).
      expect(inTrace.map((s) => s.spanId)).toContain(consumerSpan.parentSpanId);
      // The gateway's server span ends after its answer, so it may come in a later batch than its children.
      expect(inTrace.some((s) => s.parentSpanId === '')).toBe(true);
      return inTrace;
    },
    { timeoutMs: 10_000 },
  );
  // The trace starts at the gateway's server span for POST /signup (kind 2 = SERVER) and has no parent.
  const root = trace.find((s) => s.parentSpanId === '');
  expect(root).toMatchObject({ service: 'gateway', kind: 2 });
  expect(root!.name).toMatch(/POST/);
  // Identity handled the RPC inside it (a server span of identity's own).
  expect(trace.some((s) => s.service === 'identity' && s.kind === 2)).toBe(true);
  // CONSUMER = 5; its parent is identity's (the span that wrote the outbox row).
  expect(consumerSpan.kind).toBe(5);
  expect(trace.find((s) => s.spanId === consumerSpan.parentSpanId)?.service).toBe('identity');
}, 60_000);
