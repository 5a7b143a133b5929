import { baseConfigSchema, MAIL_SETTINGS, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

export const identityConfigSchema = baseConfigSchema.extend({
  IDENTITY_PORT: portSchema.default(4101),
  /** Runtime connection: the application role (not the owner). */
  IDENTITY_DATABASE_URL: z.string().default('postgres://ledgerline_identity_app@127.0.0.1:5432/ledgerline_identity'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  IDENTITY_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_identity'),
  /** The mail outbox (the chassis' `MailOutbox`): SMTP_URL, MAIL_FROM, attempts, back-off, poll interval, SMTP timeout. */
  ...MAIL_SETTINGS,
  /** The web app's public URL, for links in mail. */
  WEB_URL: z.string().default('http://localhost:3000'),
  GOOGLE_CLIENT_ID: z.string().default('ledgerline-local.apps.googleusercontent.com'),
  GOOGLE_JWKS_URL: z.string().default('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_ISSUERS: z.string().default('accounts.google.com,https://accounts.google.com'),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .positive()
    .default(12 * 60),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(30),
  /** A login from an account whose last code check is older than this asks for a code again. */
  LOGIN_CODE_TRUST_DAYS: z.coerce.number().nonnegative().default(30),
  /** Secret mixed into one-time-code hashes (a 6-digit code alone is cheap to brute-force offline). */
  OTP_PEPPER: z.string().min(16).default('development-only-otp-pepper-change-me'),
  SUPPORT_HASH_SECRET: z.string().min(16).default('development-only-support-secret'),
  /** Resend cool-down between codes of one login attempt. */
  OTP_RESEND_SECONDS: z.coerce.number().nonnegative().default(30),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;

export function assertProductionSecrets(config: IdentityConfig): void {
  if (config.NODE_ENV === 'production' && (config.OTP_PEPPER.startsWith('development-only') || config.SUPPORT_HASH_SECRET.startsWith('development-only'))) {
    throw new Error('OTP_PEPPER and SUPPORT_HASH_SECRET must be set in production');
  }
}
