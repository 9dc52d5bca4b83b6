// The HTTP server: fastify 5 with one plugin per concern, registered in the order a request meets them: the
// answers to what reaches no route (Node's parser refused it, its URL cannot be routed), authentication and rate
// limit (onRequest), the JSON body read within the bounds of src/sandbox/core/bounds.ts (parsing), the required
// body (preValidation), the base paths (421 at the wrong one), idempotency, the access checks (preHandler), then
// the operation routes; the error formatting and the 404/405 answers for all. Request validation reads the
// contract (src/sandbox/core/ajv.ts). CORS (cors.ts) comes first of the hooks: a preflight carries no key.
import Fastify, { type FastifyInstance } from 'fastify';
import { contractModel } from '../../contract/model.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { sharedValidatorCompiler } from '../core/ajv.js';
import { operationsOf, simulationDocument, type JsonObject } from '../core/contract.js';
import { dropContentTypeOfEmptyBody } from '../core/empty-body.js';
import { IdempotencyStore } from '../core/idempotency.js';
import { accessChecks } from './access.js';
import { cors } from './cors.js';
import { authentication } from './auth.js';
import { basePaths, literalPathFirst, noOperationAnswer } from './base-paths.js';
import { BODY_LIMIT_BYTES, HEADER_LIMIT_BYTES, HEADERS_TIMEOUT_MS, PARAM_MAX_LENGTH, REQUEST_TIMEOUT_MS } from '../core/bounds.js';
import { errorFormatting } from './errors.js';
import { idempotency } from './idempotency.js';
import { jsonBody } from './json-body.js';
import { operationRoutes } from './operation-routes.js';
import { newRequestId } from './request-ids.js';
import type { RequestState } from './request-state.js';
import { clientErrorHandler, frameworkErrors, unroutable } from './unroutable.js';

export interface ServerOptions {
  core: SandboxCore;
  document: JsonObject;
  handlers: Handlers;
  rateLimit: boolean;
  /** Origins trusted for CORS besides loopback pages (cors.ts). */
  corsOrigins?: string[];
  /** Extra route registrations (the simulation API). */
  extra?: (app: FastifyInstance) => Promise<void> | void;
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { core, document, handlers } = options;
  const operations = operationsOf(document);
  const store = new IdempotencyStore(core.db);
  const noOperation = noOperationAnswer(core, contractModel(document));

  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: newRequestId,
    return503OnClosing: false,
    requestTimeout: REQUEST_TIMEOUT_MS,
    http: { maxHeaderSize: HEADER_LIMIT_BYTES, headersTimeout: HEADERS_TIMEOUT_MS, requireHostHeader: false },
    routerOptions: { maxParamLength: PARAM_MAX_LENGTH },
    clientErrorHandler: clientErrorHandler(core),
    frameworkErrors: frameworkErrors(core),
    // The compilers are given here rather than set on the server: fastify then never loads its own Ajv and
    // fast-json-stringify (a good part of a start). Request validation reads the contract; answers are
    // JSON.stringify'd, every field kept (the tests check them against the contract).
    schemaController: {
      compilersFactory: {
        // fastify types the factory after its own Ajv compiler; a validator compiler of the same call shape fits.
        buildValidator: (() => sharedValidatorCompiler(document)) as never,
        buildSerializer: () => () => (data: unknown) => JSON.stringify(data),
      },
    },
  });
  app.decorateRequest('sandbox', null as unknown as RequestState);
  app.removeContentTypeParser('text/plain');
  await app.register(unroutable, { core });
  await app.register(cors, { origins: options.corsOrigins, documents: [document, simulationDocument()] });
  app.addHook('onRequest', literalPathFirst(contractModel(document), noOperation));
  app.addHook('onRequest', dropContentTypeOfEmptyBody);

  await app.register(authentication, { core, rateLimit: options.rateLimit });
  await app.register(jsonBody);
  await app.register(errorFormatting, { core, noOperation });
  await app.register(basePaths, { noOperation });
  await app.register(idempotency, { core, store });
  await app.register(accessChecks, { core });
  await app.register(operationRoutes, { core, document, operations, handlers, idempotency: store });
  if (options.extra) await app.register(async (scope) => options.extra!(scope));
  return app;
}
