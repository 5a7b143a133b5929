import { AjvCompiler, type Options as AjvOptions } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import { decimalsKeyword, finiteKeyword } from './hardening.js';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type ValidatorFactory = NonNullable<NonNullable<SchemaController['compilersFactory']>['buildValidator']>;
type SerializerFactory = NonNullable<NonNullable<SchemaController['compilersFactory']>['buildSerializer']>;
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
 *
 * `compile: 'lazy'` compiles a route's validators and response serializers on the route's first use instead of
 * when the app starts. Compiling all 200-odd routes eagerly takes seconds (mostly fast-json-stringify), which
 * every test file paid for a handful of routes; production compiles eagerly (`GATEWAY_SCHEMA_COMPILE`), so a
 * broken schema stops the start, and a test builds the gateway eagerly to keep that true.
 */
export function gatewaySchemaController({ compile = 'eager' }: { compile?: 'eager' | 'lazy' } = {}): SchemaController {
  const pool = AjvCompiler();
  const buildValidator = (externalSchemas: Parameters<BuildFromPool>[0], options?: PoolOptions): Compile => {
    const plugins = [...(options?.plugins ?? []), decimalsKeyword, finiteKeyword] as PoolOptions['plugins'];
    const custom = (options?.customOptions ?? {}) as AjvOptions;
    const text = pool(externalSchemas, { plugins, customOptions: { ...custom, coerceTypes: 'array', removeAdditional: true } });
    const body = pool(externalSchemas, { plugins, customOptions: { ...custom, coerceTypes: false, removeAdditional: true } });
    // fastify calls the compiler with its route definition (see @fastify/ajv-compiler), which the
    // library's own types describe as a bare schema.
    const select = (def: RouteSchemaDef) => (def.httpPart === 'body' ? body : text);
    const eager = (def: Parameters<Compile>[0]) => select(def as RouteSchemaDef)(def);
    return (compile === 'eager' ? eager : (def: Parameters<Compile>[0]) => lazyValidator(() => eager(def))) as Compile;
  };
  const serializers = SerializerSelector();
  const buildSerializer = (...args: Parameters<typeof serializers>) => {
    const build = serializers(...args);
    if (compile === 'eager') return build;
    return (def: Parameters<typeof build>[0]) => {
      let serialize: ReturnType<typeof build> | undefined;
      return (data: unknown) => (serialize ??= build(def))(data);
    };
  };
  return { compilersFactory: { buildValidator: buildValidator as ValidatorFactory, buildSerializer: buildSerializer as SerializerFactory } };
}

/** A validator compiled on its first call; fastify reads `errors` from the function it was given. */
function lazyValidator(compile: () => ReturnType<Compile>): ReturnType<Compile> {
  let validate: ReturnType<Compile> | undefined;
  const lazy = ((data: unknown) => {
    validate ??= compile();
    const result = (validate as (data: unknown) => unknown)(data);
    (lazy as { errors?: unknown }).errors = (validate as { errors?: unknown }).errors;
    return result;
  }) as ReturnType<Compile>;
  return lazy;
}
