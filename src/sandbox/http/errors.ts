// Every failure in the failure envelope: an ApiError as it is, a request validation error as
// VALIDATION_ERROR with its fields (src/sandbox/core/validation-messages.ts), a body fastify refused (415,
// 413, not JSON), and anything else as a 500 INTERNAL_ERROR, whose error is also logged on stderr
// (src/sandbox/core/failure-log.ts): the server has no logger, and the response may be all its client keeps.
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BODY_LIMIT_BYTES, TOO_LARGE_READ_BYTES, TOO_LARGE_READ_MS } from '../core/bounds.js';
import type { SandboxCore } from '../core/context.js';
import { ApiError, apiError, outsideOperations } from '../core/errors.js';
import { logFailure } from '../core/failure-log.js';
import { validationProblem, type AjvError } from '../core/validation-messages.js';
import { sendError } from './envelope.js';
import { unroutedState } from './request-state.js';

/** Reads and discards the rest of a request body, up to TOO_LARGE_READ_BYTES and TOO_LARGE_READ_MS. */
function discardBody(raw: IncomingMessage): Promise<void> {
  if (raw.complete || Number(raw.headers['content-length']) > TOO_LARGE_READ_BYTES) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const stop = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', stop).off('error', stop).off('close', stop);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > TOO_LARGE_READ_BYTES) stop();
    };
    const timer = setTimeout(stop, TOO_LARGE_READ_MS);
    raw.on('data', onData).once('end', stop).once('error', stop).once('close', stop);
    raw.resume();
  });
}

export interface ErrorOptions {
  core: SandboxCore;
  /** The answer to a request no operation serves (./base-paths.ts): a body sent there fails before routing. */
  noOperation: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
}

export const errorFormatting = fp<ErrorOptions>(
  async (app: FastifyInstance, { core, noOperation }) => {
    app.setErrorHandler((error: FastifyError & { validation?: unknown[]; validationContext?: string }, request, reply) => {
      if (!request.sandbox) request.sandbox = unroutedState();
      // A body sent to no operation (refused as it was read): the path or method is what is wrong.
      if (request.routeOptions.url === undefined) return noOperation(request, reply);
      if (error instanceof ApiError) return sendError(core, request, reply, error);
      if (error.validation) {
        const context = error.validationContext ?? 'body';
        const data =
          context === 'body'
            ? request.body
            : context === 'querystring'
              ? request.query
              : context === 'params'
                ? request.params
                : request.headers;
        const { message, fields } = validationProblem(error.validation as AjvError[], context, data);
        return sendError(core, request, reply, apiError('VALIDATION_ERROR', message, { fields }));
      }
      switch (error.code) {
        case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
          return sendError(
            core,
            request,
            reply,
            outsideOperations(415, `Content-Type ${String(request.headers['content-type'])} is not accepted: send application/json.`, {
              fields: [{ field: 'Content-Type', message: 'must be application/json' }],
            }),
          );
        case 'FST_ERR_CTP_BODY_TOO_LARGE': {
          const limit = request.routeOptions.bodyLimit ?? BODY_LIMIT_BYTES;
          const tooLarge = outsideOperations(413, `The request body is larger than ${limit} bytes.`, {
            fields: [{ field: 'body', message: `must be at most ${limit} bytes` }],
          });
          return discardBody(request.raw).then(() => {
            sendError(core, request, reply, tooLarge);
          });
        }
        case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        case 'FST_ERR_CTP_INVALID_JSON_BODY':
          return sendError(
            core,
            request,
            reply,
            apiError('VALIDATION_ERROR', 'The request body is not valid JSON.', {
              fields: [{ field: 'body', message: 'is not valid JSON' }],
            }),
          );
      }
      if (error instanceof SyntaxError || error.statusCode === 400) {
        return sendError(
          core,
          request,
          reply,
          apiError('VALIDATION_ERROR', `The request body is not valid JSON: ${error.message}`, {
            fields: [{ field: 'body', message: 'is not valid JSON' }],
          }),
        );
      }
      logFailure(`500 ${request.id} ${request.method} ${request.url.slice(0, 200)}`, error);
      return sendError(
        core,
        request,
        reply,
        apiError('INTERNAL_ERROR', `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`, null),
      );
    });
  },
  { name: 'sandbox-error-formatting' },
);
