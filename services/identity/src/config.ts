import { baseConfigSchema, portSchema } from '@ledgerline/platform';
import { z } from 'zod';

export const identityConfigSchema = baseConfigSchema.extend({
  IDENTITY_PORT: portSchema.default(4101),
  /** Runtime connection: the application role (not the owner). */
  IDENTITY_DATABASE_URL: z.string().default('postgres://ledgerline_identity_app@127.0.0.1:5432/ledgerline_identity'),
  /** Owner connection for provisioning and migrations (the start-up step / migration Job only). */
  IDENTITY_DATABASE_ADMIN_URL: z.string().default('postgres://postgres@127.0.0.1:5432/ledgerline_identity'),
  /** smtp://host:port; empty logs mail instead of sending (development only). */
  SMTP_URL: z.string().default(''),
  MAIL_FROM: z.string().default('Ledgerline <no-reply@ledgerline.local>'),
  /** The web app's public URL, for links in mail. */
  WEB_URL: z.string().default('http://localhost:3000'),
  GOOGLE_CLIENT_ID: z.string().default('ledgerline-local.apps.googleusercontent.com'),
  GOOGLE_JWKS_URL: z.string().default('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_ISSUERS: z.string().default('accounts.google.com,https://accounts.google.com'),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(12 * 60),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(30),
  /** A login from an account whose last code check is older than this asks for a code again. */
  LOGIN_CODE_TRUST_DAYS: z.coerce.number().nonnegative().default(30),
  /** Secret mixed into one-time-code hashes (a 6-digit code alone is cheap to brute-force offline). */
  OTP_PEPPER: z.string().min(16).default('development-only-otp-pepper-change-me'),
  SUPPORT_HASH_SECRET: z.string().min(16).default('development-only-support-secret'),
  /** The mail outbox job (src/mail/outbox.ts): attempts before a mail is given up, back-off base, poll interval. */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
  MAIL_POLL_MS: z.coerce.number().int().min(10).default(1_000),
  /** Each SMTP wait (connect, greeting, socket idle); a claimed row's lease is derived from it. */
  MAIL_SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Resend cool-down between codes of one login attempt. */
  OTP_RESEND_SECONDS: z.coerce.number().nonnegative().default(30),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;

export function assertProductionSecrets(config: IdentityConfig): void {
  if (config.NODE_ENV === 'production' && (config.OTP_PEPPER.startsWith('development-only') || config.SUPPORT_HASH_SECRET.startsWith('development-only'))) {
    throw new Error('OTP_PEPPER and SUPPORT_HASH_SECRET must be set in production');
  }
}
