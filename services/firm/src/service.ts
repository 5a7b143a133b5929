import { createMailOutbox, defineService, type BaseOverrides, type Mailer, type MailOutbox, type Running, type ServiceContext } from '@ledgerline/platform';
import { firmConfigSchema, type FirmConfig } from './config.js';
import { firmRoutes } from './rpc/handlers.js';
import { firmMigrations } from './store/migrations.js';
import { createUseCases, type FirmUseCases } from './usecases/index.js';

export type FirmOverrides = BaseOverrides & {
  /** The clock invites expire by (tests move it forward). */
  now?: () => Date;
  /** The SMTP sender of the mail outbox (tests hand in a stand-in). */
  mailer?: Mailer;
};

/** The firm service: firms, firm members, invites, client organizations and member access. Publishes firm.access_changed through its outbox; consumes nothing; sends its invite mail through the chassis' mail outbox. */
export const firm = defineService({
  name: 'firm',
  config: firmConfigSchema,
  migrations: firmMigrations,
  publishes: true,
  build: ({ config, overrides, db, logger }: ServiceContext<FirmConfig, FirmOverrides>) => {
    // Invite mail is written in the invite's transaction and sent by the chassis' mail outbox job.
    const mailOutbox = createMailOutbox({ db, logger, settings: config, mailer: overrides.mailer });
    const useCases = createUseCases({ db, webUrl: config.WEB_URL, now: overrides.now, mailWritten: () => mailOutbox.wake() });
    return { routes: firmRoutes(useCases), jobs: [mailOutbox], expose: { useCases, mailOutbox } };
  },
});

export type FirmService = Running<{ useCases: FirmUseCases; mailOutbox: MailOutbox }, true>;
export const createFirmService = (config: FirmConfig, overrides: FirmOverrides = {}): Promise<FirmService> => firm.create(config, overrides);
