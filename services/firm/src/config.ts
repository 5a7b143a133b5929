import { baseConfigSchema, MAIL_SETTINGS, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

export const firmConfigSchema = baseConfigSchema.extend({
  FIRM_PORT: portSchema.default(4105),
  /** Runtime connection: the application role (not the owner; row-level security applies). */
  FIRM_DATABASE_URL: z.string().default('postgres://ledgerline_firm_app@127.0.0.1:5432/ledgerline_firm'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  FIRM_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_firm'),
  /** The invite mail's outbox (the chassis' `MailOutbox`): SMTP_URL (the local mailbox in development; empty logs the
   *  mail), MAIL_FROM, attempts, back-off, poll interval, SMTP timeout. */
  ...MAIL_SETTINGS,
  /** The web app: invite links open `${WEB_URL}/verify-invite?token=...&kind=firm`. */
  WEB_URL: z.string().default('http://localhost:3000'),
});

export type FirmConfig = z.infer<typeof firmConfigSchema>;
