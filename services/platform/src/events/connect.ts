import type { Logger } from 'pino';
import type { EventBus } from './bus.js';
import { MemoryEventBus } from './memory-bus.js';
import { NatsEventBus, type StreamSettings } from './nats-bus.js';

/** The bus a service process uses: NATS JetStream, or the in-process bus when EVENT_BUS=memory. */
export async function connectBus(options: {
  kind: 'nats' | 'memory';
  url: string;
  name: string;
  logger: Logger;
  namespace?: string;
  streams?: StreamSettings;
}): Promise<EventBus> {
  if (options.kind === 'memory') {
    options.logger.warn('EVENT_BUS=memory: events stay inside this process (single-machine development only; nothing survives a restart)');
    return new MemoryEventBus();
  }
  return NatsEventBus.connect({ url: options.url, name: options.name, logger: options.logger, namespace: options.namespace, streams: options.streams });
}
