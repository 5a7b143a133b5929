// SubscribeOptions.concurrency: a subject's messages handled several at once when asked, one after
// another otherwise; every message handled once either way.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../src/index.js';
import { createTestBus, expectEventually } from '../src/testing/index.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;

beforeEach(async () => {
  bus = await createTestBus('bus-concurrency');
});
afterEach(async () => {
  await bus?.close();
});

/** Publishes `n` messages on each subject and records, per subject, the most handlers that ran at once. */
async function run(concurrency: Record<string, number> | undefined, n = 24) {
  const subjects = ['events.test.fast', 'events.test.ordered'];
  const inFlight = new Map<string, number>();
  const most = new Map<string, number>();
  const seen = new Map<string, string[]>();
  const sub = await bus.subscribe({ durable: `c${newId().slice(-8)}`, subjects, concurrency }, async (msg) => {
    const now = (inFlight.get(msg.subject) ?? 0) + 1;
    inFlight.set(msg.subject, now);
    most.set(msg.subject, Math.max(most.get(msg.subject) ?? 0, now));
    await new Promise((r) => setTimeout(r, 20));
    seen.set(msg.subject, [...(seen.get(msg.subject) ?? []), new TextDecoder().decode(msg.data)]);
    inFlight.set(msg.subject, (inFlight.get(msg.subject) ?? 1) - 1);
    await msg.ack();
  });
  try {
    for (let i = 0; i < n; i++) for (const s of subjects) await bus.publish(s, new TextEncoder().encode(String(i)), { msgId: newId() });
    await expectEventually(
      async () => {
        for (const s of subjects) if ((seen.get(s) ?? []).length !== n) throw new Error(`${s}: ${(seen.get(s) ?? []).length} of ${n}`);
      },
      { timeoutMs: 20_000 },
    );
  } finally {
    await sub.stop();
  }
  return { most, seen };
}

describe('NATS bus concurrency', () => {
  it('handles a subject several at once when asked and keeps other subjects one at a time, in order; each message once', async () => {
    const { most, seen } = await run({ 'events.test.fast': 4 });
    expect(most.get('events.test.fast')).toBeGreaterThan(1);
    expect(most.get('events.test.fast')).toBeLessThanOrEqual(4);
    expect(most.get('events.test.ordered')).toBe(1);
    expect(seen.get('events.test.ordered')).toEqual(Array.from({ length: 24 }, (_, i) => String(i)));
    expect(new Set(seen.get('events.test.fast')).size).toBe(24);
  });

  it('without the option every subject is handled one message at a time', async () => {
    const { most } = await run(undefined, 8);
    expect(most.get('events.test.fast')).toBe(1);
    expect(most.get('events.test.ordered')).toBe(1);
  });
});
