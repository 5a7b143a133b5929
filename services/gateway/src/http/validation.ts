import { AjvCompiler, type Options as AjvOptions } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';
import { decimalsKeyword, finiteKeyword } from './hardening.js';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type ValidatorFactory = NonNullable<NonNullable<SchemaController['compilersFactory']>['buildValidator']>;
type BuildFromPool = ReturnType<typeof AjvCompiler>;
type PoolOptions = NonNullable<Parameters<BuildFromPool>[1]>;
type Compile = ReturnType<BuildFromPool>;

/** What fastify hands a validator compiler for one part of one route. */
interface RouteSchemaDef {
  httpPart?: string;
}

/**
 * Two ajv instances (fastify's own compiler, twice):
 * - JSON bodies are validated strictly: no type coercion, so `{ "email": 123 }` is a 400 naming
 *   `email` instead of silently becoming "123"; unknown properties are removed (`removeAdditional`),
 *   so a body that tries to set `workspaceId` or `role` has no effect.
 * - Query strings, path parameters and headers arrive as text, so they keep fastify's coercion
 *   (`"20"` → 20 for an integer `take`).
 * Both know the `x-decimals` keyword of amounts (see hardening.ts).
 */
export function gatewaySchemaController(): SchemaController {
  const pool = AjvCompiler();
  const buildValidator = (externalSchemas: Parameters<BuildFromPool>[0], options?: PoolOptions): Compile => {
    const plugins = [...(options?.plugins ?? []), decimalsKeyword, finiteKeyword] as PoolOptions['plugins'];
    const custom = (options?.customOptions ?? {}) as AjvOptions;
    const text = pool(externalSchemas, { plugins, customOptions: { ...custom, coerceTypes: 'array', removeAdditional: true } });
    const body = pool(externalSchemas, { plugins, customOptions: { ...custom, coerceTypes: false, removeAdditional: true } });
    // fastify calls the compiler with its route definition (see @fastify/ajv-compiler), which the
    // library's own types describe as a bare schema.
    const select = (def: RouteSchemaDef) => (def.httpPart === 'body' ? body : text);
    return ((def: Parameters<Compile>[0]) => select(def as RouteSchemaDef)(def)) as Compile;
  };
  return { compilersFactory: { buildValidator: buildValidator as ValidatorFactory } };
}
