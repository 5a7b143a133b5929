// A small closed-loop load runner: N connections each send the next request when the last one answered.
// It plays the role autocannon or k6 play elsewhere, with the same figures (throughput, latency percentiles).
// Node's fetch keeps connections alive between requests, as a load tool would.

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
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    name: options.name,
    connections: options.connections,
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
