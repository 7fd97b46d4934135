import type { paths } from '@pixel-atlas/api-types';

/**
 * Types of the public API, derived from the OpenAPI document the gateway serves (generated into
 * @pixel-atlas/api-types from the services' zod schemas; a test fails when that file is stale).
 */
export type ApiPath = keyof paths;
type HttpVerb = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends ApiPath, M extends HttpVerb> = NonNullable<paths[P][M]>;
type SuccessStatus = 200 | 201;
type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : null;

/** The JSON body a successful call returns. */
export type ApiResponse<P extends ApiPath, M extends HttpVerb = 'get'> =
  Operation<P, M> extends { responses: infer R } ? JsonOf<R[Extract<keyof R, SuccessStatus>]> : never;

/** The JSON body a call sends. */
export type ApiRequestBody<P extends ApiPath, M extends HttpVerb> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
