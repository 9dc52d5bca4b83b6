// The answers to requests that reach no route, in the failure envelope like every other answer:
// - what Node's HTTP parser refuses before fastify sees a request (fastify's `clientErrorHandler`): a garbage
//   request line, CR, LF or NUL in a header (400), a request line and headers over HEADER_LIMIT_BYTES, a long
//   query included (431), a request that does not arrive in time (408);
// - a URL fastify cannot route (`frameworkErrors`): a path whose percent-encoding is not UTF-8 names no
//   resource, 404 as an unknown path;
// - what Node would answer itself, outside the envelope or not at all: `CONNECT` (the connection was closed
//   without an answer), an `Expect` other than `100-continue` (a bare 417: the sandbox ignores it, as HTTP
//   allows) and a request without `Host` (a bare 400: the sandbox does not route by host, so it serves it).
// These answers have no operation, no key and no request of fastify's: their `meta` has a request id of its own
// and the mode `test`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { http } from '../../node-http.js';
import { HEADER_LIMIT_BYTES, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../core/bounds.js';
import type { SandboxCore } from '../core/context.js';
import { apiError, outsideOperations, type ApiError } from '../core/errors.js';
import { failureBody, sendError } from './envelope.js';
import { newRequestId } from './request-ids.js';
import { unroutedState } from './request-state.js';

/** What Node's parser reports (`error.code`, and `reason` for llhttp's errors). */
interface ClientError extends Error {
  code?: string;
  reason?: string;
}

/** The answer to a request Node's parser refused. */
export function clientErrorAnswer(error: ClientError): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return outsideOperations(
        431,
        `The request line and headers are larger than ${HEADER_LIMIT_BYTES} bytes: send a shorter query, or fewer or shorter headers.`,
        {
          fields: [{ field: 'headers', message: `the request line and headers must be at most ${HEADER_LIMIT_BYTES} bytes` }],
        },
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return outsideOperations(
        408,
        `The request did not arrive in time: its headers must arrive within ${HEADERS_TIMEOUT_MS / 1000} seconds, the whole request within ${REQUEST_TIMEOUT_MS / 1000}.`,
        {
          fields: [{ field: 'request', message: `must arrive whole within ${REQUEST_TIMEOUT_MS / 1000} seconds` }],
        },
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return outsideOperations(413, 'The chunk extensions of the request body are too large.', {
        fields: [{ field: 'body', message: 'has chunk extensions too large' }],
      });
    default: {
      const why = (error.reason ?? error.code ?? error.message).replace(/[^\x20-\x7e]+/g, ' ').slice(0, 200);
      return outsideOperations(400, `The request is not valid HTTP/1.1: ${why}.`, {
        fields: [{ field: 'request', message: `is not valid HTTP/1.1 (${why})` }],
      });
    }
  }
}

/** A whole HTTP/1.1 response in the failure envelope, written on a socket that then closes. */
function rawAnswer(core: SandboxCore, error: ApiError): string {
  const body = JSON.stringify(failureBody(error, { request_id: newRequestId(), mode: 'test', timestamp: core.clock.iso() }));
  return `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** fastify's `clientErrorHandler`: Node's parser refused what came on the socket. */
export function clientErrorHandler(core: SandboxCore) {
  return (error: ClientError, socket: Duplex): void => {
    // A reset connection has no one to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // The response under way on this socket (Node's own field: the socket's current ServerResponse).
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight?.req.complete) {
      // Its request arrived whole: what follows it (bytes after `Connection: close`, a garbage request pipelined
      // behind it) is what is wrong. That request gets its own answer, then the connection closes.
      const close = () => socket.destroy();
      inFlight.once('finish', close).once('close', close);
      return;
    }
    // Otherwise the request itself is refused, unless its answer has begun (a body that broke off after it).
    if (socket.writable && !inFlight?.headersSent) socket.write(rawAnswer(core, clientErrorAnswer(error)));
    socket.destroy(error);
  };
}

/** fastify's `frameworkErrors`: a URL its router cannot take apart. */
export function frameworkErrors(core: SandboxCore) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    if (!request.sandbox) request.sandbox = unroutedState();
    const path = request.url.split('?')[0]!;
    const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    const why =
      error.code === 'FST_ERR_BAD_URL' ? 'its path is not a valid URL (a percent-encoded part is not UTF-8)' : 'its path cannot be routed';
    sendError(core, request, reply, apiError('RESOURCE_NOT_FOUND', `No operation at ${request.method} ${shown}: ${why}.`, null));
  };
}

/** The server-level answers Node would give outside the envelope (see the top of this file). */
export const unroutable = fp<{ core: SandboxCore }>(
  async (app: FastifyInstance, { core }) => {
    const server = app.server;
    server.on('connect', (request: IncomingMessage, socket: Duplex) => {
      const target = String(request.url).slice(0, 200);
      socket.end(rawAnswer(core, apiError('RESOURCE_NOT_FOUND', `No operation at CONNECT ${target}: the sandbox is not a proxy.`, null)));
    });
    server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
      server.emit('request', request, response);
    });
  },
  { name: 'sandbox-unroutable' },
);
