// One declaration per service: what it is (name, settings, migrations, Connect handlers, whether it
// publishes through the outbox, what it consumes, what runs beside it) in; logger, database pool (the
// application role, row-level security by tenant), bus, outbox relay, consumers, Connect server with
// health and metrics, ordered start and stop, `main` and `migrate` out. See docs/service-kit.md.
import type { ConnectRouter } from '@connectrpc/connect';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { ConfigError, loadConfig, type BaseConfig } from '../config.js';
import { createDb, grantAppRole, provisionDatabase, systemUrlOf, type Knex } from '../db/database.js';
import { pairSystemPool, systemPoolOf } from '../db/tenancy.js';
import { migrateLatest, type Migration } from '../db/migrations.js';
import type { EventBus, Subscription } from '../events/bus.js';
import { connectBus } from '../events/connect.js';
import { OutboxRelay } from '../events/relay.js';
import { eventRetentionRules, RetentionSweeper, type RetentionRule } from '../events/retention.js';
import { runUntilSignal } from '../lifecycle.js';
import { createLogger, type Logger } from '../logger.js';
import { createServiceServer } from '../rpc/server.js';
import { assertServiceTrustConfig } from '../rpc/trust.js';

/** The settings every service has by its name: `LEDGER_PORT`, `LEDGER_DATABASE_URL`, `LEDGER_DATABASE_ADMIN_URL`. */
export type ServiceConfig<N extends string> = BaseConfig &
  Record<`${Uppercase<N>}_PORT`, number> &
  Record<`${Uppercase<N>}_DATABASE_URL` | `${Uppercase<N>}_DATABASE_ADMIN_URL`, string>;

/** What tests and the in-process stack may hand in instead of what the service builds itself. */
export interface BaseOverrides {
  db?: Knex;
  /** The system role's pool; when `db` is handed in without it, the pool paired with `db` (test databases pair theirs). */
  systemDb?: Knex;
  bus?: EventBus;
  logger?: Logger;
}

/** Something that runs beside the server (a work queue's workers, a sweeper, a projector). */
export interface Job {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What a service's `build` answers: its handlers and what runs beside them. */
export interface ServiceParts<X> {
  /** The Connect handlers (`router.service(TheService, impl)`). */
  routes: (router: ConnectRouter) => void;
  /** Consumers of other services' events, started after the relay, stopped after the server. */
  consumers?: Array<() => Promise<Subscription>>;
  /** Started after the consumers, stopped (in reverse) right after the server closes; `stop` must be safe when `start` never ran. */
  jobs?: Job[];
  /** The service's own parts that callers reach (use cases, workers...); getters stay live. */
  expose: X;
}

export interface ServiceContext<C, O> {
  config: C;
  overrides: O;
  logger: Logger;
  db: Knex;
  /** The system role's pool (cross-tenant work: relays, consumers of tenant-less events, sweepers); `withSystem(db, ...)` uses it. */
  systemDb: Knex;
  bus: EventBus;
}

export interface ServiceDefinition<N extends string, S extends z.ZodType<ServiceConfig<N>>, O extends BaseOverrides, X, P extends boolean> {
  name: N;
  /** The service's settings (baseConfigSchema extended; the three named settings above are required). */
  config: S;
  migrations: Migration[];
  /** True when the service writes events to its outbox: an outbox relay publishes them. */
  publishes: P;
  build(context: ServiceContext<z.infer<S>, O>): Promise<ServiceParts<X>> | ServiceParts<X>;
  /** Refuses settings `main` must not start with (e.g. development secrets in production). */
  assertConfig?(config: z.infer<S>): void;
  /**
   * The service's own rows that may go once old (expired sessions, old webhook deliveries); the chassis adds
   * relayed outbox rows and processed inbox ids. One sweeper runs them every RETENTION_INTERVAL_SECONDS.
   */
  retention?: RetentionRule[];
  /** Extra fields of the "listening" log line. */
  describe?(config: z.infer<S>): Record<string, unknown>;
}

export interface RunningParts<P extends boolean = boolean> {
  server: FastifyInstance;
  db: Knex;
  systemDb: Knex;
  bus: EventBus;
  logger: Logger;
  /** Null when the service publishes no events. */
  relay: P extends true ? OutboxRelay : null;
  /** Removes what the retention rules say may go (run on its own every RETENTION_INTERVAL_SECONDS). */
  retention: RetentionSweeper;
  /** Starts the relay, the consumers and the jobs, then listens on the configured port; answers the base URL. */
  listen(): Promise<string>;
  /** Stops in reverse order of start; closes the bus and the pool unless they were handed in. */
  stop(): Promise<void>;
}

export type Running<X, P extends boolean = boolean> = RunningParts<P> & X;

export interface DefinedService<C, O, X, P extends boolean = boolean> {
  name: string;
  /** The settings schema (stacks parse their environment with it). */
  config: z.ZodType<C>;
  migrations: Migration[];
  /** Wires the service without starting it. */
  create(config: C, overrides?: O): Promise<Running<X, P>>;
  /** Creates (once) the database and its application role, migrates it as the owner, grants the role; answers what was applied. */
  migrate(env?: NodeJS.ProcessEnv): Promise<string[]>;
  /** The process entry (src/main.ts): settings from the environment, listen, stop on SIGTERM/SIGINT. */
  main(): Promise<void>;
  /** The migration entry (src/migrate.ts, the Helm pre-upgrade Job): migrate, log, exit 1 on failure. */
  migrateMain(): Promise<void>;
}

/** The environment variable names a service's settings use for its port and databases. */
export function serviceEnvNames(name: string): { port: string; databaseUrl: string; adminUrl: string } {
  const key = name.toUpperCase();
  return { port: `${key}_PORT`, databaseUrl: `${key}_DATABASE_URL`, adminUrl: `${key}_DATABASE_ADMIN_URL` };
}

export function defineService<N extends string, S extends z.ZodType<ServiceConfig<N>>, O extends BaseOverrides, X extends object, P extends boolean>(
  definition: ServiceDefinition<N, S, O, X, P>,
): DefinedService<z.infer<S>, O, X, P> {
  type C = z.infer<S>;
  const { name } = definition;
  const env = serviceEnvNames(name);
  const setting = (config: C, key: string) => (config as unknown as Record<string, unknown>)[key];

  async function create(config: C, overrides: O = {} as O): Promise<Running<X, P>> {
    const logger = overrides.logger ?? createLogger(name, config.LOG_LEVEL);
    const db = overrides.db ?? createDb({ url: setting(config, env.databaseUrl) as string, applicationName: name });
    // The system role's own pool, as large as the application's: the application role cannot see across tenants
    // (RELIABILITY 9), and the relay and every across-tenant consumer batch (reporting's projector) run here. A small
    // pool made batches wait past the acquire timeout under load, fail five times and be dead-lettered.
    const ownsSystemDb = !overrides.systemDb && !overrides.db;
    const systemDb =
      overrides.systemDb ??
      (overrides.db
        ? systemPoolOf(overrides.db)
        : createDb({ url: systemUrlOf(setting(config, env.databaseUrl) as string), applicationName: `${name}-system` }));
    pairSystemPool(db, systemDb);
    const bus =
      overrides.bus ??
      (await connectBus({
        kind: config.EVENT_BUS,
        url: config.NATS_URL,
        name,
        logger,
        namespace: config.NATS_NAMESPACE,
        streams: { replicas: config.NATS_STREAM_REPLICAS, deadLetterKeepDays: config.DEAD_LETTER_KEEP_DAYS },
      }));
    const parts = await definition.build({ config, overrides, logger, db, systemDb, bus });
    const relay = definition.publishes ? new OutboxRelay({ db: systemDb, bus, logger, service: name }) : null;
    const sweeper = new RetentionSweeper({
      db: systemDb,
      logger,
      service: name,
      intervalMs: config.RETENTION_INTERVAL_SECONDS * 1000,
      rules: [...eventRetentionRules({ outboxKeepHours: config.OUTBOX_KEEP_HOURS, inboxKeepDays: config.INBOX_KEEP_DAYS }), ...(definition.retention ?? [])],
    });
    const server = await createServiceServer({
      name,
      logger,
      routes: parts.routes,
      readiness: { database: () => db.raw('select 1') },
      tokenKey: config.SERVICE_TOKEN_KEY,
    });
    const jobs = [...(parts.jobs ?? []), sweeper];
    let subscriptions: Subscription[] = [];
    const base: RunningParts<P> = {
      server,
      db,
      systemDb,
      bus,
      logger,
      relay: relay as RunningParts<P>['relay'],
      retention: sweeper,
      async listen() {
        await relay?.start();
        for (const consume of parts.consumers ?? []) subscriptions.push(await consume());
        for (const job of jobs) await job.start();
        return server.listen({ port: setting(config, env.port) as number, host: config.HOST });
      },
      async stop() {
        await server.close();
        // Every job, started or not: a job may have been started on its own (reporting's rebuild command).
        for (const job of [...jobs].reverse()) await job.stop();
        for (const s of subscriptions.reverse()) await s.stop();
        subscriptions = [];
        await relay?.stop();
        if (!overrides.bus) await bus.close();
        if (!overrides.db) await db.destroy();
        if (ownsSystemDb) await systemDb.destroy();
      },
    };
    // Copies the exposed parts with their descriptors, so a getter (e.g. reporting's projector) stays live.
    return Object.defineProperties(base, Object.getOwnPropertyDescriptors(parts.expose)) as Running<X, P>;
  }

  async function migrate(processEnv: NodeJS.ProcessEnv = process.env): Promise<string[]> {
    const config = loadConfig(definition.config, processEnv);
    const adminUrl = setting(config, env.adminUrl) as string;
    const app = new URL(setting(config, env.databaseUrl) as string);
    const appRole = decodeURIComponent(app.username);
    await provisionDatabase({ adminUrl, database: app.pathname.slice(1), appRole, appPassword: app.password ? decodeURIComponent(app.password) : undefined });
    const admin = createDb({ url: adminUrl, pool: { max: 1 } });
    try {
      const applied = await migrateLatest(admin, definition.migrations);
      await grantAppRole(admin, appRole);
      return applied;
    } finally {
      await admin.destroy();
    }
  }

  async function main(): Promise<void> {
    let config: C;
    try {
      config = loadConfig(definition.config);
      assertServiceTrustConfig(config);
      definition.assertConfig?.(config);
    } catch (err) {
      console.error(err instanceof ConfigError ? err.message : err);
      process.exit(1);
    }
    const logger = createLogger(name, config.LOG_LEVEL);
    const service = await create(config, { logger } as O);
    const url = await service.listen();
    logger.info({ url, ...definition.describe?.(config) }, `${name} listening`);
    runUntilSignal(logger, () => service.stop());
  }

  async function migrateMain(): Promise<void> {
    const logger = createLogger(`${name}-migrate`);
    try {
      const applied = await migrate();
      logger.info({ applied }, `${name} database migrated`);
    } catch (err) {
      logger.error({ err }, 'migration failed');
      process.exit(1);
    }
  }

  return { name, config: definition.config as unknown as z.ZodType<C>, migrations: definition.migrations, create, migrate, main, migrateMain };
}
