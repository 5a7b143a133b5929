import { z } from 'zod';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Reads and validates environment variables against a zod schema once, at start-up, so a service
 * with a bad setting refuses to start with every bad variable named, instead of failing later.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}

/** The service token key every development stack shares; production refuses it (assertServiceTrustConfig). */
export const DEVELOPMENT_SERVICE_TOKEN_KEY = 'development-only-service-token-key-do-not-use-in-production';

/** HS256 keys shorter than the hash (32 bytes) are refused. */
export const MIN_SERVICE_TOKEN_KEY_LENGTH = 32;

/** Settings every service process has. Services extend this with their own. */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** `memory` runs an in-process bus for single-machine development only (see docs/architecture.md). */
  EVENT_BUS: z.enum(['nats', 'memory']).default('nats'),
  /** Prefix of the streams and subjects, so processes sharing one NATS server stay apart (tests). Empty in production. */
  NATS_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9]*$/)
    .default(''),
  HOST: z.string().default('127.0.0.1'),
  /** The shared key of service-to-service tokens (HS256); the same value in the gateway and every service. Production refuses the default. */
  SERVICE_TOKEN_KEY: z.string().min(MIN_SERVICE_TOKEN_KEY_LENGTH).default(DEVELOPMENT_SERVICE_TOKEN_KEY),
  /** Replicas of the JetStream streams the services create (3 on a three-server NATS cluster in production). */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** Days a dead letter is kept for an operator to inspect and replay; the events stream itself keeps everything (read models rebuild from it). */
  DEAD_LETTER_KEEP_DAYS: z.coerce.number().min(1).max(3650).default(30),
  /** Hours a relayed outbox row is kept (for tracing a delivery) before the retention sweeper removes it. */
  OUTBOX_KEEP_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 365)
    .default(24),
  /** Days a processed inbox id is kept: longer than any outage of a consumer, after which JetStream could redeliver its event. */
  INBOX_KEEP_DAYS: z.coerce.number().min(1).max(3650).default(14),
  /** Seconds between the retention sweeper's passes (outbox, inbox and each service's own rules). */
  RETENTION_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
});

export type BaseConfig = z.infer<typeof baseConfigSchema>;

/** Port numbers from the environment: "0" asks the OS for a free port (tests). */
export const portSchema = z.coerce.number().int().min(0).max(65535);
