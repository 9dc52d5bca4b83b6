// What the base paths serve: the partner API at `/v1`, its gift card operations at `/api/v1` (421
// `wrong_api_host` at `/v1`), and for anything else a 405 naming the path's methods or a 404 with a hint at the
// right base path (src/sandbox/core/path-hint.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BASE_PATHS, BASE_SERVER, GIFT_CARD_SERVER } from '../../contract/servers.js';
import type { SandboxCore } from '../core/context.js';
import type { OperationInfo } from '../core/contract.js';
import { ApiError, apiError, wrongMethodAnswer } from '../core/errors.js';
import { basePathHint } from '../core/path-hint.js';
import { sendError } from './envelope.js';
import { type RouteConfig, unroutedState } from './request-state.js';

const escapeRe = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** The contract's path templates as regular expressions, to tell a wrong method from an unknown path. */
function methodsByPath(operations: OperationInfo[]): { template: string; re: RegExp; methods: Set<string> }[] {
  const byTemplate = new Map<string, Set<string>>();
  for (const op of operations) {
    const set = byTemplate.get(op.path) ?? new Set<string>();
    set.add(op.method);
    byTemplate.set(op.path, set);
  }
  // A literal segment wins over a parameter: `/payouts/beneficiaries` is not `/payouts/{code}`.
  const params = (template: string) => template.split('{').length;
  return [...byTemplate]
    .sort(([a], [b]) => params(a) - params(b))
    .map(([template, methods]) => ({
      template,
      re: new RegExp(
        `^(?:${BASE_PATHS.map(escapeRe).join('|')})${template
          .split(/\{[^}]+\}/)
          .map(escapeRe)
          .join('[^/]+')}/?$`,
      ),
      methods,
    }));
}

/** The answer to a request no operation serves: the contract's wrong-method answer for a known path, else 404. */
export function noOperationAnswer(core: SandboxCore, operations: OperationInfo[]) {
  // Made at the first request no operation serves, not at the start, which most test runs never send.
  let pathMethods: ReturnType<typeof methodsByPath> | undefined;
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (!request.sandbox) request.sandbox = unroutedState();
    const path = request.url.split('?')[0]!;
    pathMethods ??= methodsByPath(operations);
    const match = pathMethods.find((r) => r.re.test(path));
    if (match && !match.methods.has(request.method)) {
      // The contract's answer (x-refusals.wrong_method): 405 with `Allow` naming the path's methods.
      const answer = wrongMethodAnswer();
      const allowed = [...match.methods].join(', ');
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
      apiError('RESOURCE_NOT_FOUND', `No operation at ${request.method} ${path}.${basePathHint(request.method, path, operations)}`, null),
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
  operations: OperationInfo[],
  noOperation: (request: FastifyRequest, reply: FastifyReply) => FastifyReply,
): (request: FastifyRequest, reply: FastifyReply, done: () => void) => void {
  const pathMethods = methodsByPath(operations);
  return (request, reply, done) => {
    const operation = (request.routeOptions.config as RouteConfig | undefined)?.operation;
    if (!operation) return done();
    const path = request.url.split('?')[0]!;
    const match = pathMethods.find((r) => r.re.test(path));
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
