// The types of the client's one typed call: every path, its path parameters, query, body and answer come from
// the generated `paths` (src/gen/schema.d.ts), so a call to a path or with a field the gateway does not have
// fails to compile. Types only; the calls themselves are `createApiClient`'s.
import type { paths } from './gen/schema';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The operation of a path and method (never when the path has no such method). */
export type Operation<M extends Method, P extends keyof paths> = NonNullable<paths[P][M]>;

/** The paths that answer a method. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: [Operation<M, P>] extends [never] ? never : P;
}[keyof paths];

type Parameters<O> = O extends { parameters: infer X } ? X : never;

/** The query as sent: lists of a string field go comma-joined (spec §7); empty values are left out. */
export type QueryOf<Q> = {
  [K in keyof Q]?: Q[K] | (NonNullable<Q[K]> extends string ? readonly NonNullable<Q[K]>[] : never) | null;
};

type WithLooseQuery<T> = { [K in keyof T]: K extends 'query' ? QueryOf<NonNullable<T[K]>> : T[K] };
type ParamsOf<O> = WithLooseQuery<Pick<Parameters<O>, Extract<keyof Parameters<O>, 'path' | 'query'>>>;

type RequestBody<O> = O extends { requestBody?: infer R } ? NonNullable<R> : never;
type BodyContent<O> =
  RequestBody<O> extends { content: infer C }
    ? C extends { 'application/json': infer J }
      ? J
      : C extends { 'multipart/form-data': unknown }
        ? FormData
        : never
    : never;

type ParamsPart<O> = Parameters<O> extends { path: object } | { query: object } ? { params: ParamsOf<O> } : { params?: ParamsOf<O> };
type BodyPart<O> = [RequestBody<O>] extends [never]
  ? { body?: never }
  : object extends Pick<O & { requestBody?: unknown }, 'requestBody'>
    ? { body?: BodyContent<O> }
    : { body: BodyContent<O> };

/** What a typed call takes besides its path: `params.path`, `params.query`, `body`, `signal`. */
export type CallInit<O> = ParamsPart<O> & BodyPart<O> & { signal?: AbortSignal | undefined };

/** The init argument, optional when nothing in it is required. */
export type InitArgs<O> = CallInit<O> extends { params: object } | { body: unknown } ? [init: CallInit<O>] : [init?: CallInit<O>];

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;

/** The JSON answer of an operation's success (200, 201, else 204: nothing). */
export type AnswerOf<O> = O extends { responses: infer R } ? (R extends { 200: infer S } ? Json<S> : R extends { 201: infer S } ? Json<S> : undefined) : never;

/** The answer of a typed call. */
export type Answer<M extends Method, P extends PathsWith<M>> = AnswerOf<Operation<M, P>>;

/** The init of a typed call to a path (for wrappers that pass it on). */
export type Init<M extends Method, P extends PathsWith<M>> = CallInit<Operation<M, P>>;

/** The query of a path's GET, as the typed call takes it. */
export type QueryFor<P extends PathsWith<'get'>> = NonNullable<ParamsOf<Operation<'get', P>> extends { query?: infer Q } ? Q : never>;

/** The JSON body of a path's method. */
export type BodyFor<M extends Method, P extends PathsWith<M>> = BodyContent<Operation<M, P>>;

/** A typed call of one method: `client.get('/vendors/{id}', { params: { path: { id } } })`. */
export type TypedCall<M extends Method> = <P extends PathsWith<M>>(path: P, ...init: InitArgs<Operation<M, P>>) => Promise<Answer<M, P>>;

/** Fills `{name}` in a path from `params.path` (each value URI-encoded). */
export function fillPath(path: string, values: Readonly<Record<string, string | number>> | undefined): string {
  return path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = values?.[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}
