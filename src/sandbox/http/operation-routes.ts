// The partner API's operations as routes: each route of the contract (read by fastify-openapi-glue,
// src/sandbox/core/document-routes.ts) at `/v1`, and the gift card ones at `/api/v1` too, with the
// module's handler as the HTTP adapter calls it: a required body checked, the handler's outcome in the success
// envelope, and 501 for an operation no module implements.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BASE_PATHS, BASE_SERVER } from '../../contract/servers.js';
import { BODY_LIMIT_BYTES, LONG_FIELD_BODY_MARGIN_BYTES } from '../core/bounds.js';
import type { Call, Handlers, OperationId, SandboxCore } from '../core/context.js';
import type { JsonObject, OperationInfo } from '../core/contract.js';
import { documentRoutes, type DocumentRoute } from '../core/document-routes.js';
import { ApiError, apiError, outsideOperations } from '../core/errors.js';
import type { IdempotencyStore } from '../core/idempotency.js';
import { successBody, type Outcome } from './envelope.js';
import type { RouteConfig } from './request-state.js';

export interface OperationRouteOptions {
  core: SandboxCore;
  document: JsonObject;
  operations: OperationInfo[];
  handlers: Handlers;
  idempotency: IdempotencyStore;
}

export const operationRoutes = fp<OperationRouteOptions>(
  async (app: FastifyInstance, { core, document, operations, handlers, idempotency }) => {
    app.addHook('preValidation', (request, _reply, done) => {
      if (request.sandbox.route.operation?.bodyRequired && (request.body === undefined || request.body === null)) {
        throw apiError('VALIDATION_ERROR', 'A JSON request body is required.', {
          fields: [{ field: 'body', message: 'is required (required)' }],
        });
      }
      done();
    });

    /** The route options of an operation at a base path (its method, url and schema are the document's). */
    const routeOptions = (prefix: string, { operationId, method, openapiPath }: DocumentRoute) => {
      const operation = operations.find((o) => o.operationId === operationId)!;
      const config: RouteConfig = { operation, wrongHost: prefix === BASE_SERVER.path && operation.altHost };
      const handler = handlers[operationId as OperationId] as ((call: Call<OperationId>) => unknown) | undefined;
      return {
        config,
        // A body with a long string field (a proof-of-address file, up to 10 MB base64-encoded) may exceed the default.
        bodyLimit: Math.max(BODY_LIMIT_BYTES, operation.longestBodyString + LONG_FIELD_BODY_MARGIN_BYTES),
        handler: async (request: FastifyRequest, reply: FastifyReply) => {
          if (!handler) {
            throw outsideOperations(501, `${method.toUpperCase()} ${openapiPath} (${operationId}) is not implemented in the sandbox yet.`, {
              operation_id: operationId,
              not_implemented: true,
            });
          }
          const call = {
            account: request.sandbox.account!,
            ip: request.ip,
            params: request.params,
            query: request.query,
            body: request.body,
            core,
          } as Call<OperationId>;
          // A synchronous handler's change and the idempotent answer to it commit in one transaction, so a crash
          // cannot keep the one without the other. (An asynchronous handler's answer is kept when it is sent.)
          const idem = request.sandbox.idempotency;
          let body: ReturnType<typeof successBody> | undefined;
          const started = core.db.transaction(() => {
            let value: Outcome | Promise<Outcome>;
            try {
              // On the clock of the key's account: the handler's timestamps, expiries and timers, and what it awaits.
              value = core.clock.within(call.account.id, () => handler(call)) as Outcome | Promise<Outcome>;
            } catch (error) {
              // A failure that is itself a fact (a provider failed the operation; its event is sent) commits what
              // was recorded before it; any other error rolls the operation back.
              if (error instanceof ApiError && error.keepsChanges) return { failed: error };
              throw error;
            }
            if (value instanceof Promise) return { later: value };
            body = successBody(core, request, value);
            if (idem && !idem.replayed) {
              idempotency.keep(
                call.account.id,
                idem.key,
                { fingerprint: idem.fingerprint, status: 200, body: JSON.stringify(body) },
                core.clock.of(call.account.id).now(),
              );
              idem.kept = true;
            }
            return { now: value };
          });
          if (started.failed) throw started.failed;
          const result: Outcome = started.later ? await started.later : started.now!;
          for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
          return reply.code(200).send(body ?? successBody(core, request, result));
        },
      };
    };

    const routes = await documentRoutes(document);
    const altPaths = new Set(operations.filter((o) => o.altHost).map((o) => o.path));
    for (const prefix of BASE_PATHS) {
      await app.register(
        async (scope) => {
          for (const route of routes) {
            if (prefix === BASE_SERVER.path || altPaths.has(route.openapiPath))
              scope.route({ method: route.method, url: route.url, schema: route.schema, ...routeOptions(prefix, route) });
          }
        },
        { prefix },
      );
    }
  },
  { name: 'sandbox-operation-routes' },
);
