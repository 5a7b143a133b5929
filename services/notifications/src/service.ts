import { createMailOutbox, defineService, type BaseOverrides, type Mailer, type MailOutbox, type Running, type ServiceContext } from '@ledgerline/platform';
import { notificationsConfigSchema, type NotificationsConfig } from './config.js';
import { startNotificationsConsumer } from './events/consumer.js';
import { notificationsRoutes } from './rpc/handlers.js';
import { notificationsMigrations } from './store/migrations.js';
import { createUseCases, type NotificationsUseCases } from './usecases/index.js';

export type NotificationsOverrides = BaseOverrides & {
  /** The SMTP sender of the mail outbox (tests hand in a stand-in). */
  mailer?: Mailer;
  maxDeliver?: number;
};

/**
 * The notifications service (decision 0040): consumes member.changed, transaction.commented, bank_account.linked,
 * bank_account.synced, bank_connection.reconnect_required and invite.accepted through the chassis' inbox, stores each
 * user's notifications, publishes notification.created through its outbox (the gateway's live stream) and sends the
 * mail users want through the chassis' mail outbox.
 */
export const notifications = defineService({
  name: 'notifications',
  config: notificationsConfigSchema,
  migrations: notificationsMigrations,
  publishes: true,
  build: ({ config, overrides, db, bus, logger }: ServiceContext<NotificationsConfig, NotificationsOverrides>) => {
    const useCases = createUseCases({ db, logger });
    // Mail is written in the consumer's transaction; the outbox job finds it on its next poll (MAIL_POLL_MS).
    const mailOutbox = createMailOutbox({ db, logger, settings: config, mailer: overrides.mailer });
    return {
      routes: notificationsRoutes(useCases),
      consumers: [() => startNotificationsConsumer({ db, bus, logger, webUrl: config.WEB_URL, maxDeliver: overrides.maxDeliver })],
      jobs: [mailOutbox],
      expose: { useCases, mailOutbox },
    };
  },
});

export type NotificationsService = Running<{ useCases: NotificationsUseCases; mailOutbox: MailOutbox }, true>;
export const createNotificationsService = (config: NotificationsConfig, overrides: NotificationsOverrides = {}): Promise<NotificationsService> =>
  notifications.create(config, overrides);
