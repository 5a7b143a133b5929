// Idempotent writes over REST (RELIABILITY 3): a client sends `Idempotency-Key` with a create; the gateway passes it
// on (IDEMPOTENCY_HEADER) and the service claims the key in the SAME transaction as the write. Concurrent requests
// with one key queue on the key's row: the first writes, the others then find the key taken and answer what the
// first made; the same key with another body is refused. Keys are scoped per workspace and per kind of write.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { AppError, ErrorKind } from '../errors.js';
import type { Migration } from './migrations.js';
import { disableTenantRls, enableTenantRls } from './tenancy.js';

/** The RPC header carrying the client's Idempotency-Key (the gateway checks its shape). */
export const IDEMPOTENCY_HEADER = 'x-ll-idempotency-key';
/** What a REST client sends. */
export const IDEMPOTENCY_REST_HEADER = 'idempotency-key';
/** Printable ASCII, 1–255 characters (as Stripe's keys). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_MSG = {
  reused: 'This Idempotency-Key was used with a different request',
  invalid: 'Idempotency-Key must be 1 to 255 printable characters',
} as const;

export const idempotencyMigration: Migration = {
  name: '20261128200000_platform_idempotency_keys',
  async up(knex) {
    await knex.raw(`create table idempotency_keys (
      workspace_id uuid not null,
      scope text not null,
      key text not null,
      request_hash text not null,
      result_id text not null,
      created_at timestamptz not null default now(),
      primary key (workspace_id, scope, key)
    )`);
    await enableTenantRls(knex, 'idempotency_keys');
  },
  async down(knex) {
    await disableTenantRls(knex, 'idempotency_keys');
    await knex.raw('drop table if exists idempotency_keys');
  },
};

/** A stable fingerprint of a request's content. */
export function requestHash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

export interface IdempotencyClaim {
  key: string;
  hash: string;
}

/**
 * Claims `key` for a write that will make `resultId`, in the write's transaction. Returns null when this request is
 * the first (go on and write), or the id the first request made (answer it; write nothing). Refuses the key used
 * with another body (409 IDEMPOTENCY_KEY_REUSED). A concurrent claimant waits here until the first commits or rolls
 * back (then it claims the key itself).
 */
export async function claimIdempotencyKey(
  trx: Knex.Transaction,
  workspaceId: string,
  scope: string,
  claim: IdempotencyClaim,
  resultId: string,
): Promise<string | null> {
  const inserted = await trx.raw(
    'insert into idempotency_keys (workspace_id, scope, key, request_hash, result_id) values (?, ?, ?, ?, ?) on conflict do nothing returning result_id',
    [workspaceId, scope, claim.key, claim.hash, resultId],
  );
  if (inserted.rows.length > 0) return null;
  const prior = (
    await trx.raw('select request_hash, result_id from idempotency_keys where workspace_id = ? and scope = ? and key = ?', [workspaceId, scope, claim.key])
  ).rows[0] as { request_hash: string; result_id: string } | undefined;
  if (!prior) throw new Error('idempotency key vanished after a conflict');
  if (prior.request_hash !== claim.hash)
    throw new AppError(ErrorKind.Conflict, IDEMPOTENCY_MSG.reused, {
      appErrorCode: 'IDEMPOTENCY_KEY_REUSED',
      fields: [{ field: 'Idempotency-Key', message: IDEMPOTENCY_MSG.reused }],
    });
  return prior.result_id;
}
