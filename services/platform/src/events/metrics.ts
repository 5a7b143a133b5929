import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '../rpc/metrics.js';

/**
 * What an operator watches on the event path (issue #23 item 5), per service and consumer: the outbox's
 * backlog and the age of its oldest unpublished row, what the relay published, each consumer's lag
 * (JetStream's pending and unacknowledged messages), redeliveries, failures and dead letters, and what
 * the retention sweeper removed. Served at every service's /metrics.
 */
export const eventsPublished = new Counter({
  name: 'ledgerline_outbox_published_total',
  help: 'Outbox rows the relay published to JetStream',
  labelNames: ['service'] as const,
  registers: [metricsRegistry],
});

export const eventsHandled = new Counter({
  name: 'ledgerline_events_handled_total',
  help: 'Events a consumer applied (a redelivery of an applied event is not counted)',
  labelNames: ['consumer'] as const,
  registers: [metricsRegistry],
});

export const eventRedeliveries = new Counter({
  name: 'ledgerline_event_redeliveries_total',
  help: 'Messages that arrived again (JetStream delivery count above 1)',
  labelNames: ['consumer'] as const,
  registers: [metricsRegistry],
});

export const eventFailures = new Counter({
  name: 'ledgerline_event_failures_total',
  help: 'Handler failures, by whether they were transient (retried without limit)',
  labelNames: ['consumer', 'transient'] as const,
  registers: [metricsRegistry],
});

export const deadLetters = new Counter({
  name: 'ledgerline_dead_letters_total',
  help: 'Events copied to the dead-letter stream',
  labelNames: ['consumer'] as const,
  registers: [metricsRegistry],
});

export const retentionDeleted = new Counter({
  name: 'ledgerline_retention_deleted_total',
  help: 'Rows the retention sweeper deleted, by rule',
  labelNames: ['service', 'rule'] as const,
  registers: [metricsRegistry],
});

/** Something measured only when scraped (a database count, a JetStream consumer's info). */
type Probe = () => Promise<Array<{ labels: Record<string, string>; value: number }>>;

function probedGauge(name: string, help: string, labelNames: readonly string[]) {
  const probes = new Set<Probe>();
  const gauge = new Gauge({
    name,
    help,
    labelNames: [...labelNames],
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const probe of probes) {
        // A probe that cannot answer (database or server away) leaves its series out of this scrape.
        const samples = await withTimeout(probe(), 2_000).catch(() => []);
        for (const s of samples) this.set(s.labels, s.value);
      }
    },
  });
  return {
    gauge,
    /** Registers a probe; answers its removal (a stopped service's series disappear). */
    add(probe: Probe): () => void {
      probes.add(probe);
      return () => probes.delete(probe);
    },
  };
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('probe timed out')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export const outboxBacklog = probedGauge('ledgerline_outbox_backlog', 'Outbox rows not yet published', ['service']);
export const outboxOldestSeconds = probedGauge('ledgerline_outbox_oldest_unpublished_seconds', 'Age of the oldest unpublished outbox row (0 when none)', [
  'service',
]);
export const consumerPending = probedGauge('ledgerline_consumer_pending', 'Messages a durable consumer has not received yet (JetStream num_pending)', [
  'consumer',
]);
export const consumerUnacknowledged = probedGauge(
  'ledgerline_consumer_unacknowledged',
  'Messages delivered to a consumer and not yet acknowledged (JetStream num_ack_pending)',
  ['consumer'],
);
