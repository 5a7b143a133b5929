import type { FastifyInstance } from 'fastify';
import { addSchemas } from './hardening.js';

/**
 * The REST shapes, as JSON Schema. They are the single source of truth for the edge: ajv validates
 * bodies with them, fast-json-stringify serialises answers with them, and @fastify/swagger turns them
 * into the OpenAPI document the frontend's types are generated from.
 *
 * Request bodies check types and shape only. No field is `required` and there is no `format: email`:
 * identity owns the business rules and answers with the spec's messages ('Email cannot be empty'...);
 * a missing field goes to it as an absent proto3 `optional`. `additionalProperties: false` with ajv's
 * `removeAdditional` silently drops anything else (`workspaceId`, `role`, `userId`...).
 */

const INT32_MAX = 2_147_483_647;

/** Routes for a signed-in user: the bearer session token (OpenAPI `security`). */
export const BEARER = [{ bearerAuth: [] }] as const;
export const uuid = { type: 'string', format: 'uuid' } as const;
/** JSON-schema building blocks every route folder uses. */
export const str = { type: 'string' } as const;
export const int = { type: 'integer' } as const;
export const num = { type: 'number' } as const;
export const bool = { type: 'boolean' } as const;
/** A closed object: only the listed properties (unknown ones are refused with a 400 naming them). */
export const object = (properties: Record<string, unknown>, required: string[] = []) =>
  ({ type: 'object', properties, required, additionalProperties: false }) as const;
/** Path parameters of a route on one record: `/…/{id}`. */
export const idParams = object({ id: uuid }, ['id']);

export const int32 = { type: 'integer', minimum: -INT32_MAX - 1, maximum: INT32_MAX } as const;

export const FieldErrorSchema = {
  $id: 'FieldError',
  type: 'object',
  description: 'A problem with one request field.',
  properties: { field: { type: 'string' }, message: { type: 'string' } },
  required: ['field', 'message'],
  additionalProperties: false,
} as const;

export const ErrorResponseSchema = {
  $id: 'ErrorResponse',
  type: 'object',
  description: "The one error shape of the REST edge. With `errors`, `message` is the first error's message.",
  properties: {
    message: { type: 'string' },
    errors: { type: 'array', items: { $ref: 'FieldError#' } },
    appErrorCode: { type: 'string' },
    statusCode: { type: 'integer' },
  },
  required: ['message', 'appErrorCode', 'statusCode'],
  additionalProperties: false,
} as const;

export const MessageResponseSchema = {
  $id: 'MessageResponse',
  type: 'object',
  description: 'Done; a message to show.',
  properties: { message: { type: 'string' } },
  required: ['message'],
  additionalProperties: false,
} as const;

/** The schemas every route may answer with; OpenAPI names them `#/components/schemas/<$id>`. */
export const SHARED_SCHEMAS = [FieldErrorSchema, ErrorResponseSchema] as const;

export function registerSchemas(app: FastifyInstance): void {
  addSchemas(app, SHARED_SCHEMAS);
}

/** `{ $ref: 'User#' }` for a shared schema. */
export function ref(schema: { readonly $id: string }): { $ref: string } {
  return { $ref: `${schema.$id}#` };
}

type JsonValueOf<S> = S extends { type: 'string' }
  ? string
  : S extends { type: 'integer' | 'number' }
    ? number
    : S extends { type: 'boolean' }
      ? boolean
      : never;

/** The TypeScript type of a flat request-body schema: every property optional (see the note at the top). */
export type BodyOf<S extends { properties: Record<string, unknown> }> = { [K in keyof S['properties']]?: JsonValueOf<S['properties'][K]> };

/** Documents the workspace header on authenticated routes (checked by the auth hook, not by ajv). */
export const WORKSPACE_HEADER_SCHEMA = {
  type: 'object',
  properties: {
    'x-workspace-id': {
      type: 'string',
      format: 'uuid',
      description: "The workspace to act in (a UUID the user is a member of). Default: the user's default workspace.",
    },
  },
} as const;

/** Response schemas of a route: the success answer and the error shape for every other status. */
export function responses(status: number, success: unknown): Record<string, unknown> {
  return { [status]: success, default: ref(ErrorResponseSchema) };
}
