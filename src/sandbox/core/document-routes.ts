// The routes of an OpenAPI document as fastify-openapi-glue reads them (method, path and the request schemas
// fastify validates), read once per process and document. Glue validates and dereferences the whole
// document at each read, which was most of a sandbox's start; every sandbox of the process shares the
// result and registers the routes with its own handlers.
import Fastify, { type FastifySchema, type RouteOptions } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { JsonObject } from './contract.js';

export interface DocumentRoute {
  operationId: string;
  /** `POST` */
  method: string;
  /** The document's path template: `/cards/{code}/withdraw`. */
  openapiPath: string;
  /** The same as fastify routes it: `/cards/:code/withdraw`. */
  url: string;
  schema: FastifySchema;
}

/** Where the routes are registered while they are read; only the part after it is kept. */
const READ_PREFIX = '/read';

const read = new WeakMap<JsonObject, Promise<DocumentRoute[]>>();

/** The routes of a document (read at the first call for that document object, then shared). */
export function documentRoutes(document: JsonObject): Promise<DocumentRoute[]> {
  let routes = read.get(document);
  if (!routes) {
    routes = readRoutes(document);
    read.set(document, routes);
  }
  return routes;
}

async function readRoutes(document: JsonObject): Promise<DocumentRoute[]> {
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
