// The API's envelope, for the partner API and the simulation API alike: `{ success: true, data, meta,
// pagination? }` and `{ success: false, error: { code, message, details }, meta }`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxCore } from '../core/context.js';
import { errorMessageMaxLength, type ApiError } from '../core/errors.js';

/** What a handler answers: the envelope's data, its pagination, and headers of its own. */
export interface Outcome {
  data: unknown;
  pagination?: unknown;
  headers?: Record<string, string>;
}

/** The clock of the request's account, once its key is known (the sandbox's own clock before). */
export const clockOf = (core: SandboxCore, request: FastifyRequest) => {
  const account = request.sandbox?.account;
  return account ? core.clock.of(account.id) : core.clock.current;
};

export function meta(core: SandboxCore, request: FastifyRequest) {
  return { request_id: String(request.id), mode: request.sandbox?.mode ?? 'test', timestamp: clockOf(core, request).iso() };
}

/**
 * The failure envelope of an error, with the `meta` given (an answer written before fastify has a request has its
 * own). A message that quotes what a request sent (a path of 16 KB) is cut to the contract's bound.
 */
export function failureBody(error: ApiError, meta: { request_id: string; mode: string; timestamp: string }) {
  const max = errorMessageMaxLength();
  let message = error.message;
  if (message.length > max) {
    const cut = max - 1 - (/[\ud800-\udbff]/.test(message.charAt(max - 2)) ? 1 : 0); // never half a surrogate pair
    message = `${message.slice(0, cut)}…`;
  }
  return { success: false, error: { code: error.code, message, details: error.details }, meta };
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
    .send(failureBody(error, meta(core, request)));
}
