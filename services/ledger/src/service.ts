import { connectBus, createDb, createLogger, createServiceServer, OutboxRelay, type EventBus, type Knex, type Logger, type Subscription } from '@ledgerline/platform';
import type { FastifyInstance } from 'fastify';
import type { LedgerConfig } from './config.js';
import { ledgerRoutes } from './rpc/handlers.js';
import { startLedgerConsumer } from './usecases/bank-events.js';
import { createUseCases, type LedgerUseCases } from './usecases/index.js';

export interface LedgerService {
  server: FastifyInstance;
  useCases: LedgerUseCases;
  relay: OutboxRelay;
  db: Knex;
  bus: EventBus;
  /** Starts the relay and the event consumer, listens on the configured port; returns the base URL. */
  listen(): Promise<string>;
  stop(): Promise<void>;
}

export interface LedgerOverrides {
  db?: Knex;
  bus?: EventBus;
  logger?: Logger;
  /** Deliveries before a failing event is dead-lettered (tests lower it). */
  maxDeliver?: number;
}

/** Wires the ledger: database, bus, outbox relay, the consumer of identity and banking events, Connect server. */
export async function createLedgerService(config: LedgerConfig, overrides: LedgerOverrides = {}): Promise<LedgerService> {
  const logger = overrides.logger ?? createLogger('ledger', config.LOG_LEVEL);
  const db = overrides.db ?? createDb({ url: config.LEDGER_DATABASE_URL, applicationName: 'ledger' });
  const bus = overrides.bus ?? (await connectBus({ kind: config.EVENT_BUS, url: config.NATS_URL, name: 'ledger', logger, namespace: config.NATS_NAMESPACE }));
  const useCases = createUseCases({ db, logger });
  const relay = new OutboxRelay({ db, bus, logger });
  const server = await createServiceServer({ name: 'ledger', logger, routes: ledgerRoutes(useCases), readiness: { database: () => db.raw('select 1') } });
  let consumer: Subscription | null = null;
  return {
    server, useCases, relay, db, bus,
    async listen() {
      await relay.start();
      consumer = await startLedgerConsumer({ db, bus, logger, maxDeliver: overrides.maxDeliver, concurrency: config.LEDGER_CONSUMER_CONCURRENCY, batchSize: config.LEDGER_INGEST_BATCH });
      return server.listen({ port: config.LEDGER_PORT, host: config.HOST });
    },
    async stop() {
      await server.close();
      await consumer?.stop();
      await relay.stop();
      if (!overrides.bus) await bus.close();
      if (!overrides.db) await db.destroy();
    },
  };
}
