import { defineService, type BaseOverrides, type Running, type ServiceContext } from '@ledgerline/platform';
import { notificationsConfigSchema, type NotificationsConfig } from './config.js';
import { notificationsRoutes } from './rpc/handlers.js';
import { notificationsMigrations } from './store/migrations.js';
import { createUseCases, type NotificationsUseCases } from './usecases/index.js';

export type NotificationsOverrides = BaseOverrides;

/** The notifications service: publishes notifications.record_created through its outbox; consumes nothing yet. */
export const notifications = defineService({
  name: 'notifications',
  config: notificationsConfigSchema,
  migrations: notificationsMigrations,
  publishes: true,
  build: ({ db, logger }: ServiceContext<NotificationsConfig, NotificationsOverrides>) => {
    const useCases = createUseCases({ db, logger });
    return { routes: notificationsRoutes(useCases), expose: { useCases } };
  },
});

export type NotificationsService = Running<{ useCases: NotificationsUseCases }, true>;
export const createNotificationsService = (config: NotificationsConfig, overrides: NotificationsOverrides = {}): Promise<NotificationsService> =>
  notifications.create(config, overrides);
