import { defineService, type BaseOverrides, type Running, type ServiceContext } from '@ledgerline/platform';
import { firmConfigSchema, type FirmConfig } from './config.js';
import { createMailer } from './mail/mailer.js';
import { firmRoutes } from './rpc/handlers.js';
import { firmMigrations } from './store/migrations.js';
import { createUseCases, type FirmUseCases } from './usecases/index.js';

export type FirmOverrides = BaseOverrides & {
  /** The clock invites expire by (tests move it forward). */
  now?: () => Date;
};

/** The firm service: firms, firm members, invites, client organizations and member access. Publishes firm.access_changed through its outbox; consumes nothing. */
export const firm = defineService({
  name: 'firm',
  config: firmConfigSchema,
  migrations: firmMigrations,
  publishes: true,
  build: ({ config, overrides, db, logger }: ServiceContext<FirmConfig, FirmOverrides>) => {
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger });
    const useCases = createUseCases({ db, logger, mailer, webUrl: config.WEB_URL, now: overrides.now });
    return { routes: firmRoutes(useCases), expose: { useCases } };
  },
});

export type FirmService = Running<{ useCases: FirmUseCases }, true>;
export const createFirmService = (config: FirmConfig, overrides: FirmOverrides = {}): Promise<FirmService> => firm.create(config, overrides);
