// Type helpers over the types openapi-typescript generates from the contract (generated/openapi.d.ts).
// Nothing here lists paths, codes or items by hand: they follow the contract.

import type { components, operations, paths } from '../../generated/openapi.js';

/** HTTP methods as openapi-typescript names them (lowercase keys of a Path Item). */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** The paths that have an operation for `M` (of the partner API, or of another document's `Paths`). */
export type PathsWithMethod<M extends HttpMethod, Paths extends {} = paths> = {
  [P in keyof Paths]: Paths[P] extends { [K in M]: object } ? P : never;
}[keyof Paths];

type SchemaValue = components['schemas'][keyof components['schemas']];

/**
 * Every error code the contract documents: the `error.code` of each error schema (`AccountRestrictedError`...).
 * `components.schemas.ErrorCode` itself is an open string: a code may be added, so handle one you do not know
 * by its HTTP status (docs/compatibility.md).
 */
export type ErrorCode = SchemaValue extends infer S
  ? S extends { success: false; error: { code: infer C extends string } }
    ? string extends C
      ? never
      : C
    : never
  : never;

/** Request metadata (`meta`): `request_id`, `mode`, `timestamp`. */
export type Meta = components['schemas']['Meta'];

/** Pagination of list responses: `page`, `limit`, `total`, `pages`. */
export type Pagination = components['schemas']['Pagination'];

type DetailsByCode = {
  [C in ErrorCode]: Extract<SchemaValue, { success: false; error: { code: C } }> extends { error: { details: infer D } }
    ? D
    : Record<string, unknown> | null;
};

/** The `details` the contract gives for an error code (a union for a union of codes). */
export type ErrorDetails<Code extends ErrorCode> = DetailsByCode[Code];

/** The codes carried by a union of error bodies (`{ success: false, error: { code } }`). */
export type ErrorCodeOfBody<Body> = Body extends { error: { code: infer C extends ErrorCode } } ? C : never;

type ErrorResponseBodies<Op> = Op extends { responses: infer R }
  ? {
      [S in keyof R]: `${S & (string | number)}` extends `4${string}` | `5${string}`
        ? R[S] extends { content: { 'application/json': infer Body } }
          ? Body
          : never
        : never;
    }[keyof R]
  : never;

/** The error codes an operation documents: `OperationErrorCode<'withdrawFromCard'>`. */
export type OperationErrorCode<OperationId extends keyof operations> = ErrorCodeOfBody<ErrorResponseBodies<operations[OperationId]>>;

/** The error codes documented by the operation `method` of `path`: `PathErrorCode<'/cards', 'get'>`. */
export type PathErrorCode<Path extends keyof paths, Method extends HttpMethod> = ErrorCodeOfBody<
  ErrorResponseBodies<paths[Path][Method & keyof paths[Path]]>
>;

/** The error codes of an openapi-fetch result (`await client.GET(...)`): those its operation documents. */
export type ResultErrorCode<Result> = Result extends { error?: infer E } ? ErrorCodeOfBody<NonNullable<E>> : never;

/** The JSON body of an operation's 200 response. */
export type SuccessBody<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;

type GetOperation<P extends keyof paths> = paths[P] extends { get: infer Op } ? Op : never;

/**
 * The paths whose GET is a list: its 200 body carries `pagination` and an array `data` (the
 * PaginatedEnvelope). Only these can be given to `client.paginate`.
 */
export type PaginatedPath = {
  [P in PathsWithMethod<'get'>]: [SuccessBody<GetOperation<P>>] extends [never]
    ? never
    : SuccessBody<GetOperation<P>> extends { pagination: Pagination; data: readonly unknown[] }
      ? P
      : never;
}[PathsWithMethod<'get'>];

/** The item type of a list endpoint: `PageItem<'/cards'>` is `Card`. */
export type PageItem<P extends PaginatedPath> =
  SuccessBody<GetOperation<P>> extends { data: infer Items extends readonly unknown[] } ? Items[number] : never;

/** The shared shape of an openapi-fetch result. */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}
