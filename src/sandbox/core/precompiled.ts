// What `npm run build:lib` compiled ahead for the package (scripts/package/precompile.ts), in
// dist/sandbox/precompiled/: each document's routes as the server registers them, and their request validators
// as Ajv standalone code. With them a start neither reads the document with fastify-openapi-glue nor loads Ajv,
// and a validator is a function to load, not a schema to compile. They serve only the document they were
// compiled from (its digest): anywhere else (src/ run by tsx, generated/ changed under an old dist/) the routes
// are read and the validators compiled at run time (./document-routes.ts, ./ajv.ts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifySchema } from 'fastify';
import { documentSource, type JsonObject } from './contract.js';

/**
 * The key that stands for a request schema in a precompiled route: `openapi.body/createCard`, the validator
 * exported as `createCard` by `openapi.body.cjs`. Each schema fastify hands to the validator compiler is one
 * such object, so the compiler finds its validator whatever fastify made of the route's schema.
 */
export const PRECOMPILED_KEY = 'x-precompiled';

/**
 * dist/sandbox/precompiled: `precompiled` in the nearest folder named `sandbox` above this module, which is
 * dist/sandbox/core/precompiled.js or bundled into dist/sandbox/index.js or one of its chunks
 * (scripts/package/bundle.ts); for src/ run by tsx, src/sandbox/precompiled, which never exists.
 */
export const PRECOMPILED_DIR = path.join(sandboxFolder(path.dirname(fileURLToPath(import.meta.url))), 'precompiled');

function sandboxFolder(from: string): string {
  for (let dir = from; path.dirname(dir) !== dir; dir = path.dirname(dir)) if (path.basename(dir) === 'sandbox') return dir;
  throw new Error(`no folder named sandbox above ${from}`);
}

/** A route of a document as fastify-openapi-glue reads it: see ./document-routes.ts. */
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

/** `<name>.routes.json`: the routes of the document whose text has `digest`. */
export interface PrecompiledRoutes {
  digest: string;
  routes: DocumentRoute[];
}

/** The precompiled routes of a document read by ./contract.ts, when the package has them for its text. */
export function precompiledRoutes(document: JsonObject): DocumentRoute[] | undefined {
  const source = documentSource(document);
  if (!source) return undefined;
  let read: PrecompiledRoutes;
  try {
    read = JSON.parse(fs.readFileSync(path.join(PRECOMPILED_DIR, `${source.name}.routes.json`), 'utf8')) as PrecompiledRoutes;
  } catch {
    return undefined;
  }
  return read.digest === source.digest ? read.routes : undefined;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };

const require = createRequire(import.meta.url);

/** The validator a precompiled schema stands for; its module is loaded at the first validator it is asked for. */
export function precompiledValidator(id: string): Validate {
  const [module, name] = id.split('/') as [string, string];
  const validators = require(path.join(PRECOMPILED_DIR, `${module}.cjs`)) as Record<string, Validate>;
  const validate = validators[name];
  if (!validate) throw new Error(`${PRECOMPILED_DIR}/${module}.cjs has no validator ${name}`);
  return validate;
}
