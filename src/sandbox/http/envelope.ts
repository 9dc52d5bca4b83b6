// The API's envelope, for the partner API and the simulation API alike: `{ success: true, data, meta,
// pagination? }` and `{ success: false, error: { code, message, details }, meta }`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxCore } from '../core/context.js';
import type { ApiError } from '../core/errors.js';

/** What a handler answers: the envelope's data, its pagination, and headers of its own. */
export interface Outcome {
  data: unknown;
  pagination?: unknown;
  headers?: Record<string, string>;
}

export function meta(core: SandboxCore, request: FastifyRequest) {
  return { request_id: String(request.id), mode: request.sandbox?.mode ?? 'test', timestamp: core.clock.iso() };
}

/** The success envelope of an outcome. */
export function successBody(core: SandboxCore, request: FastifyRequest, outcome: Outcome) {
  return {
    success: true,
    data: outcome.data,
    meta: meta(core, request),
    ...(outcome.pagination ? { pagination: outcome.pagination } : {}),
  };
}

/** Sends an error in the failure envelope, with its status and headers. */
export function sendError(core: SandboxCore, request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.status)
    .type('application/json')
    .send({ success: false, error: { code: error.code, message: error.message, details: error.details }, meta: meta(core, request) });
}
