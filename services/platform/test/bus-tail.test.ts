// EventBus.tail (decision 0040): a live fan-out — every tailing connection gets every message published while it is
// subscribed, beside a durable consumer that still gets each message once; nothing from before the tail started,
// nothing after it stopped; the in-memory bus the same.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryEventBus, NatsEventBus, createLogger, newId, type EventBus } from '../src/index.js';
import { createTestBus, expectEventually, TEST_NATS_URL } from '../src/testing/index.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let second: NatsEventBus;

beforeEach(async () => {
  bus = await createTestBus('bus-tail');
  // Another process (another gateway replica) on the same namespace.
  second = await NatsEventBus.connect({
    url: TEST_NATS_URL,
    name: 'bus-tail-2',
    logger: createLogger('bus-tail', 'silent'),
    namespace: bus.namespace,
  });
});
afterEach(async () => {
  await second?.close();
  await bus?.close();
});

const text = (data: Uint8Array) => new TextDecoder().decode(data);
const send = (b: EventBus, subject: string, body: string) => b.publish(subject, new TextEncoder().encode(body), { msgId: newId() });

describe('EventBus.tail', () => {
  it('gives every tailing process every message from now on, beside a durable consumer that gets each once', async () => {
    await send(bus, 'events.tail.test', 'before');
    const [a, b, durable] = [[] as string[], [] as string[], [] as string[]];
    const tailA = await bus.tail(['events.tail.test'], (m) => a.push(`${m.subject}:${text(m.data)}`));
    const tailB = await second.tail(['events.tail.test'], (m) => b.push(`${m.subject}:${text(m.data)}`));
    const sub = await bus.subscribe({ durable: `d${newId().slice(-8)}`, subjects: ['events.tail.test'] }, async (m) => {
      durable.push(text(m.data));
      await m.ack();
    });
    await send(bus, 'events.tail.test', 'one');
    await send(second, 'events.tail.test', 'two');
    await send(bus, 'events.tail.other', 'elsewhere');
    await expectEventually(() => {
      expect(a).toEqual(['events.tail.test:one', 'events.tail.test:two']);
      expect(b).toEqual(['events.tail.test:one', 'events.tail.test:two']);
      expect(durable).toEqual(['before', 'one', 'two']);
    });
    await tailA.stop();
    await send(bus, 'events.tail.test', 'three');
    await expectEventually(() => expect(b).toHaveLength(3));
    expect(a).toHaveLength(2);
    await tailB.stop();
    await sub.stop();
  });

  it('works alike on the in-memory bus; a throwing handler does not stop the others', async () => {
    const memory = new MemoryEventBus();
    const seen: string[] = [];
    await memory.tail(['events.x'], () => {
      throw new Error('broken screen');
    });
    const tail = await memory.tail(['events.x'], (m) => seen.push(text(m.data)));
    await send(memory, 'events.x', 'hello');
    await send(memory, 'events.y', 'not this');
    expect(seen).toEqual(['hello']);
    await tail.stop();
    await send(memory, 'events.x', 'gone');
    expect(seen).toEqual(['hello']);
    await memory.close();
  });
});
