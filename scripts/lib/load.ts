// A small closed-loop load runner: N connections each send the next request when the last one answered.
// It plays the role autocannon or k6 play elsewhere, with the same figures (throughput, latency percentiles).
// Node's fetch keeps connections alive between requests, as a load tool would. `loadHttp` drives plain GET
// scenarios with autocannon instead (the reporting bench, load-tests/scenarios).
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  connections: number;
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface LoadOptions {
  name: string;
  connections: number;
  /** Stop after this many requests in all, or when `seconds` ran out, whichever comes first. */
  requests?: number;
  seconds?: number;
  /** One request; resolves true when the answer is the expected one. */
  send: () => Promise<boolean>;
  /** Requests sent before measuring (JIT, caches, pools). */
  warmup?: number;
}

/** The figures of one run: latencies in ms (any order), requests that failed, the run's length in seconds. */
function summary(name: string, connections: number, latencies: number[], errors: number, seconds: number): LoadResult {
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    name,
    connections,
    requests: latencies.length,
    errors,
    seconds: round(seconds),
    rps: round(latencies.length / seconds),
    p50: round(percentile(latencies, 50)),
    p90: round(percentile(latencies, 90)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? 0),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function measure(options: LoadOptions): Promise<LoadResult> {
  for (let i = 0; i < (options.warmup ?? 20); i++) await options.send();
  const limit = options.requests ?? Number.POSITIVE_INFINITY;
  const deadline = performance.now() + (options.seconds ?? 10) * 1000;
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (sent < limit && performance.now() < deadline) {
        sent++;
        const t0 = performance.now();
        const ok = await options.send().catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  return summary(options.name, options.connections, latencies, errors, (performance.now() - started) / 1000);
}

export interface HttpLoadOptions {
  name: string;
  /** The server's origin, e.g. http://127.0.0.1:4000. */
  baseUrl: string;
  /** Paths requested in turn by each connection (one path, or several dates of one report). */
  paths: string[];
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  /** Seconds of the same load before measuring (JIT, caches, pools), not counted. */
  warmupSeconds?: number;
}

/**
 * The same figures as `measure`, from autocannon (its own HTTP/1.1 client: keep-alive, one request in
 * flight per connection). Latencies are taken per response at microsecond resolution (autocannon's own
 * histogram rounds to whole milliseconds, too coarse for 10 ms targets); any answer but 2xx is an error.
 */
export async function loadHttp(options: HttpLoadOptions): Promise<LoadResult> {
  const requests = options.paths.map((path) => ({ method: 'GET' as const, path }));
  const run = (seconds: number, latencies: number[] | null) =>
    new Promise<{ errors: number; seconds: number }>((resolve, reject) => {
      let errors = 0;
      const instance = autocannon(
        { url: options.baseUrl, connections: options.connections, duration: seconds, headers: options.headers, requests, timeout: 30 },
        (err: unknown, result: autocannon.Result) => {
          if (err) reject(err instanceof Error ? err : new Error(String(err)));
          else
            resolve({
              errors: errors + result.errors + result.timeouts,
              seconds: (new Date(result.finish).getTime() - new Date(result.start).getTime()) / 1000,
            });
        },
      );
      // The instance emits (client, status, bytes, ms) per response; its typings omit the client.
      (instance as unknown as NodeJS.EventEmitter).on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
        latencies?.push(ms);
        if (status < 200 || status > 299) errors++;
      });
    });
  if ((options.warmupSeconds ?? 2) > 0) await run(options.warmupSeconds ?? 2, null);
  const latencies: number[] = [];
  const r = await run(options.seconds, latencies);
  return summary(options.name, options.connections, latencies, r.errors, r.seconds);
}
