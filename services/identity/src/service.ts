import { createMailOutbox, defineService, type BaseOverrides, type MailOutbox, type Running, type ServiceContext } from '@ledgerline/platform';
import { assertProductionSecrets, identityConfigSchema, type IdentityConfig } from './config.js';
import { startFirmAccessConsumer } from './events/firm-access.js';
import { startPlansConsumer } from './events/plans.js';
import type { Mailer } from './mail/mailer.js';
import { identityRoutes } from './rpc/handlers.js';
import { identityMigrations } from './store/migrations.js';
import { FirmAccessUseCases } from './usecases/firm-access.js';
import { createGoogleVerifier, type GoogleTokenVerifier } from './usecases/google.js';
import { IdentityUseCases } from './usecases/identity.js';
import { TeamUseCases } from './usecases/teams.js';

export interface IdentityOverrides extends BaseOverrides {
  mailer?: Mailer;
  google?: GoogleTokenVerifier;
  now?: () => Date;
}

/** Identity: publishes user and workspace events through its outbox; consumes firm.access_changed; sends mail through its mail outbox; verifies Google sign-in. */
export const identity = defineService({
  name: 'identity',
  config: identityConfigSchema,
  migrations: identityMigrations,
  publishes: true,
  assertConfig: assertProductionSecrets,
  // Ended sessions (their one-time codes go with them), used or expired reset links and old sign-in failures
  // are kept 30 days for a security review, then removed (issue #23 item 5).
  retention: [
    { name: 'sessions', table: 'sessions', where: "coalesce(revoked_at, least(idle_expires_at, absolute_expires_at)) < now() - interval '30 days'" },
    { name: 'password_resets', table: 'password_resets', where: "coalesce(used_at, expires_at) < now() - interval '30 days'" },
    { name: 'login_failures', table: 'login_failures', where: "at < now() - interval '30 days'" },
  ],
  build: ({ config, overrides, db, bus, logger }: ServiceContext<IdentityConfig, IdentityOverrides>) => {
    const google =
      overrides.google ??
      createGoogleVerifier({
        jwksUrl: config.GOOGLE_JWKS_URL,
        clientId: config.GOOGLE_CLIENT_ID,
        issuers: config.GOOGLE_ISSUERS.split(',').map((s) => s.trim()),
      });
    // Mail written by the flows' transactions, sent by the chassis' mail outbox job.
    const mailOutbox = createMailOutbox({ db, logger, settings: config, mailer: overrides.mailer });
    const useCases = new IdentityUseCases({ db, config, logger, google, now: overrides.now, mailWritten: () => mailOutbox.wake() });
    const teams = new TeamUseCases(useCases, { db, webUrl: config.WEB_URL });
    const firmAccess = new FirmAccessUseCases({ db, now: () => useCases.now() });
    return {
      routes: identityRoutes(useCases, teams, firmAccess),
      consumers: [() => startFirmAccessConsumer({ db, bus, logger, firmAccess }), () => startPlansConsumer({ db, bus, logger })],
      jobs: [mailOutbox],
      expose: { useCases, teams, mailOutbox, firmAccess },
    };
  },
});

export type IdentityService = Running<{ useCases: IdentityUseCases; teams: TeamUseCases; mailOutbox: MailOutbox; firmAccess: FirmAccessUseCases }, true>;
export const createIdentityService = (config: IdentityConfig, overrides: IdentityOverrides = {}): Promise<IdentityService> =>
  identity.create(config, overrides);
