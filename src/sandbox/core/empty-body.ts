// A request that declares a Content-Type but carries no body (no Content-Length or `Content-Length: 0`, and no
// Transfer-Encoding) is a request without a body, as HTTP defines it. `curl -X POST -H 'Content-Type:
// application/json'` to an operation that takes no body (freeze, unfreeze) sends exactly that, as do clients that
// set the header on every request; Fastify would parse the empty body as JSON and fail ("not valid JSON").
// Dropping the header before parsing lets such a request through, and an operation that requires a body still
// answers 422 naming `body` (the preValidation check of server.ts).
// A callback hook, like the server's others: no promise per request.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

export function dropContentTypeOfEmptyBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const headers = request.raw.headers;
  const empty =
    headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0');
  if (empty && headers['content-type'] !== undefined) delete headers['content-type'];
  done();
}
