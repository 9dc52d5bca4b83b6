// The routes of an OpenAPI document as fastify-openapi-glue reads them (method, path and the request schemas
// fastify validates), read once per process and document. Glue validates and dereferences the whole
// document at each read, which was most of a sandbox's start; every sandbox of the process shares the
// result and registers the routes with its own handlers. The package has them read already (./precompiled.ts),
// and then loads neither glue nor Ajv.
import Fastify, { type RouteOptions } from 'fastify';
import type { JsonObject } from './contract.js';
import { type DocumentRoute, precompiledRoutes } from './precompiled.js';

export type { DocumentRoute } from './precompiled.js';

/** Where the routes are registered while they are read; only the part after it is kept. */
const READ_PREFIX = '/read';

const read = new WeakMap<JsonObject, Promise<DocumentRoute[]>>();
const served = new WeakMap<JsonObject, Promise<DocumentRoute[]>>();

/**
 * The routes the server registers for a document: the package's precompiled ones, whose schemas stand for
 * precompiled validators, or else those glue reads.
 */
export function documentRoutes(document: JsonObject): Promise<DocumentRoute[]> {
  let routes = served.get(document);
  if (!routes) {
    const precompiled = precompiledRoutes(document);
    routes = precompiled ? Promise.resolve(precompiled) : readDocumentRoutes(document);
    served.set(document, routes);
  }
  return routes;
}

/** The routes of a document as glue reads them, their request schemas whole (read at the first call for that document object, then shared). */
export function readDocumentRoutes(document: JsonObject): Promise<DocumentRoute[]> {
  let routes = read.get(document);
  if (!routes) {
    routes = readRoutes(document);
    read.set(document, routes);
  }
  return routes;
}

async function readRoutes(document: JsonObject): Promise<DocumentRoute[]> {
  const { default: openapiGlue } = await import('fastify-openapi-glue');
  const routes: DocumentRoute[] = [];
  // No HEAD routes: the server that registers these adds its own for each GET.
  const app = Fastify({ logger: false, exposeHeadRoutes: false });
  // Only the route definitions are wanted here: each sandbox compiles (and caches) the validators.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onRoute', (route: RouteOptions & { routePath?: string }) => {
    const { operationId, openapiPath } = route.config as { operationId: string; openapiPath: string };
    routes.push({
      operationId,
      openapiPath,
      method: String(route.method),
      url: route.routePath ?? route.url.slice(READ_PREFIX.length),
      schema: route.schema ?? {},
    });
  });
  const operationResolver = (operationId: string, _method: string, openapiPath: string) => ({
    config: { operationId, openapiPath },
    handler: async () => null,
  });
  await app.register(openapiGlue, {
    specification: structuredClone(document),
    operationResolver: operationResolver as never,
    prefix: READ_PREFIX,
  });
  await app.close();
  return routes;
}
