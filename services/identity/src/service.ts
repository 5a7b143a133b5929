import { createDb, createLogger, createServiceServer, connectBus, OutboxRelay, type EventBus, type Knex, type Logger } from '@ledgerline/platform';
import type { FastifyInstance } from 'fastify';
import type { IdentityConfig } from './config.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { identityRoutes } from './rpc/handlers.js';
import { createGoogleVerifier, type GoogleTokenVerifier } from './usecases/google.js';
import { IdentityUseCases } from './usecases/identity.js';

export interface IdentityService {
  server: FastifyInstance;
  useCases: IdentityUseCases;
  relay: OutboxRelay;
  db: Knex;
  bus: EventBus;
  /** Listens on the configured port; returns the base URL. */
  listen(): Promise<string>;
  stop(): Promise<void>;
}

export interface IdentityOverrides {
  db?: Knex;
  bus?: EventBus;
  mailer?: Mailer;
  google?: GoogleTokenVerifier;
  logger?: Logger;
  now?: () => Date;
}

/** Wires the identity service: database, bus, outbox relay, mailer, Connect server. */
export async function createIdentityService(config: IdentityConfig, overrides: IdentityOverrides = {}): Promise<IdentityService> {
  const logger = overrides.logger ?? createLogger('identity', config.LOG_LEVEL);
  const db = overrides.db ?? createDb({ url: config.IDENTITY_DATABASE_URL, applicationName: 'identity' });
  const bus = overrides.bus ?? (await connectBus({ kind: config.EVENT_BUS, url: config.NATS_URL, name: 'identity', logger, namespace: config.NATS_NAMESPACE }));
  const mailer = overrides.mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger });
  const google = overrides.google ?? createGoogleVerifier({ jwksUrl: config.GOOGLE_JWKS_URL, clientId: config.GOOGLE_CLIENT_ID, issuers: config.GOOGLE_ISSUERS.split(',').map((s) => s.trim()) });
  const useCases = new IdentityUseCases({ db, config, mailer, logger, google, now: overrides.now });
  const relay = new OutboxRelay({ db, bus, logger });
  const server = await createServiceServer({
    name: 'identity',
    logger,
    routes: identityRoutes(useCases),
    readiness: { database: () => db.raw('select 1') },
  });
  return {
    server, useCases, relay, db, bus,
    async listen() {
      await relay.start();
      return server.listen({ port: config.IDENTITY_PORT, host: config.HOST });
    },
    async stop() {
      await server.close();
      await relay.stop();
      if (!overrides.bus) await bus.close();
      if (!overrides.db) await db.destroy();
    },
  };
}
