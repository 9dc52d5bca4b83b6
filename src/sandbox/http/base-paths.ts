// What the base paths serve: the partner API at `/v1`, its gift card operations at `/api/v1` (421
// `wrong_api_host` at `/v1`), and for anything else a 405 naming the path's methods or a 404 with a hint at the
// right base path (src/sandbox/core/path-hint.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ContractModel, PathTemplate } from '../../contract/model.js';
import { BASE_SERVER, GIFT_CARD_SERVER, splitBasePath } from '../../contract/servers.js';
import type { SandboxCore } from '../core/context.js';
import { ApiError, apiError, wrongMethodAnswer } from '../core/errors.js';
import { basePathHint } from '../core/path-hint.js';
import { sendError } from './envelope.js';
import { type RouteConfig, unroutedState } from './request-state.js';

/** The contract's template of a request's path (with its base path), to tell a wrong method from an unknown path. */
function templateOf(model: ContractModel, path: string): PathTemplate | undefined {
  const { base, rest } = splitBasePath(path);
  return base === undefined ? undefined : model.match(rest);
}

/** The answer to a request no operation serves: the contract's wrong-method answer for a known path, else 404. */
export function noOperationAnswer(core: SandboxCore, model: ContractModel) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (!request.sandbox) request.sandbox = unroutedState();
    const path = request.url.split('?')[0]!;
    const match = templateOf(model, path);
    if (match && !match.methods.includes(request.method)) {
      // The contract's answer (x-refusals.wrong_method): 405 with `Allow` naming the path's methods.
      const answer = wrongMethodAnswer();
      const allowed = match.methods.join(', ');
      if (answer.allowHeader) reply.header('Allow', allowed);
      const details = { method: request.method, allowed_methods: [...match.methods] };
      return sendError(
        core,
        request,
        reply,
        ApiError.refusal(
          answer,
          `${request.method} is not an operation of ${path}; it accepts ${allowed}.`,
          Object.fromEntries(answer.details.map((k) => [k, details[k as keyof typeof details]])),
        ),
      );
    }
    return sendError(
      core,
      request,
      reply,
      apiError('RESOURCE_NOT_FOUND', `No operation at ${request.method} ${path}.${basePathHint(request.method, path, model)}`, null),
    );
  };
}

/**
 * A request the router took to a parameter's route although the contract gives its path literally (`GET
 * /payouts/quotes` reaches `GET /payouts/{code}`): the literal path is the one named, and it does not have the
 * method, so the answer is the wrong-method one. An onRequest hook registered before authentication, as the
 * contract decides the route first (`x-refusals.order`).
 */
export function literalPathFirst(
  model: ContractModel,
  noOperation: (request: FastifyRequest, reply: FastifyReply) => FastifyReply,
): (request: FastifyRequest, reply: FastifyReply, done: () => void) => void {
  return (request, reply, done) => {
    const operation = (request.routeOptions.config as RouteConfig | undefined)?.operation;
    if (!operation) return done();
    const match = templateOf(model, request.url.split('?')[0]!);
    if (match && match.template !== operation.path) {
      noOperation(request, reply);
      return;
    }
    done();
  };
}

export interface BasePathOptions {
  noOperation: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
}

export const basePaths = fp<BasePathOptions>(
  async (app: FastifyInstance, { noOperation }) => {
    app.setNotFoundHandler(noOperation);
    // Before idempotency: a call at the wrong address is not the operation's answer, and is not kept.
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.sandbox.route.wrongHost && request.sandbox.account) {
        throw apiError(
          'wrong_api_host',
          `Gift card operations are served at the gift card address \`{${GIFT_CARD_SERVER.variable}}\` (\`${GIFT_CARD_SERVER.path}\`), not at \`${BASE_SERVER.path}\`.`,
          null,
        );
      }
      done();
    });
  },
  { name: 'sandbox-base-paths' },
);
