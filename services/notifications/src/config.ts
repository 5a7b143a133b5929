import { baseConfigSchema, MAIL_SETTINGS, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

export const notificationsConfigSchema = baseConfigSchema.extend({
  NOTIFICATIONS_PORT: portSchema.default(4109),
  /** Runtime connection: the application role (not the owner; row-level security applies). */
  NOTIFICATIONS_DATABASE_URL: z.string().default('postgres://ledgerline_notifications_app@127.0.0.1:5432/ledgerline_notifications'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  NOTIFICATIONS_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_notifications'),
  /** The notification mail's outbox (the chassis' `MailOutbox`): SMTP_URL (the local mailbox in development; empty logs
   *  the mail), MAIL_FROM, attempts, back-off, poll interval, SMTP timeout. */
  ...MAIL_SETTINGS,
  /** The web app: a mail's link opens `${WEB_URL}<the notification's redirect url>`. */
  WEB_URL: z.string().default('http://localhost:3000'),
});

export type NotificationsConfig = z.infer<typeof notificationsConfigSchema>;
