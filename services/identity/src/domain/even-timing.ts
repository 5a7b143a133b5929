/**
 * Answers of one operation take about as long whichever branch ran (RELIABILITY 18, ASVS V2.2):
 * every answer waits until the recent 90th percentile of that operation's durations, so a known and
 * an unknown email cannot be told apart by the clock. Kept per process; the cost is a few
 * milliseconds on the fast branch.
 */
export class EvenTiming {
  private readonly samples = new Map<string, number[]>();

  constructor(
    private readonly options: { floorMs?: number; window?: number; percentile?: number; sleep?: (ms: number) => Promise<void>; clock?: () => number } = {},
  ) {}

  /** The duration every answer of `operation` is held to now. */
  target(operation: string): number {
    const recent = this.samples.get(operation) ?? [];
    const floor = this.options.floorMs ?? 0;
    if (recent.length === 0) return floor;
    const sorted = [...recent].sort((a, b) => a - b);
    const index = Math.min(sorted.length - 1, Math.floor((this.options.percentile ?? 0.9) * sorted.length));
    return Math.max(floor, sorted[index] ?? 0);
  }

  private record(operation: string, ms: number): void {
    const list = this.samples.get(operation) ?? [];
    list.push(ms);
    if (list.length > (this.options.window ?? 32)) list.shift();
    this.samples.set(operation, list);
  }

  /** Runs `work`, then answers (its value or its error) no sooner than the operation's target. */
  async run<T>(operation: string, work: () => Promise<T>): Promise<T> {
    const clock = this.options.clock ?? (() => performance.now());
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const started = clock();
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await work() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    const took = clock() - started;
    const target = this.target(operation);
    this.record(operation, took);
    if (took < target) await sleep(target - took);
    if (outcome.ok) return outcome.value;
    throw outcome.error;
  }
}
