// The sandbox's start, compiled ahead for the package: `npm run build:lib` runs it after compiling src/ into
// dist/. For the partner API's document (generated/openapi.json, as the sandbox serves it) and the simulation
// API's (generated/sandbox.json), it writes into dist/sandbox/precompiled/:
//   <name>.routes.json   the routes as fastify-openapi-glue reads them, each request schema replaced by the key
//                        of its validator, with the digest of the document they were read from (no response
//                        schemas: the sandbox's answers are JSON.stringify'd whatever they say);
//   <name>.body.cjs      the body validators, and <name>.params.cjs those of path, query and headers: Ajv's
//                        standalone code (ajv/dist/standalone) from the sandbox's own Ajv (src/sandbox/core/ajv.ts),
//                        compiled from the schemas exactly as fastify hands them to its validator compiler
//                        (the headers' names lower-cased, a body per media type).
// The package's sandbox then starts without glue or Ajv (src/sandbox/core/precompiled.ts). It runs the
// compiled dist/ code, so that what it writes is what that code reads.
//
//   node scripts/package/precompile.ts [--dist <dir>]   (default dist/)
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import standaloneCode from 'ajv/dist/standalone/index.js';
import Fastify from 'fastify';
import { parseCli, runCli } from '../lib/cli-parser.ts';
import { ROOT } from '../lib/paths.ts';
import type { JsonObject } from '../../src/contract/bundle.ts';
import type { DocumentSource } from '../../src/sandbox/core/contract.ts';
import type { DocumentRoute, PrecompiledRoutes } from '../../src/sandbox/core/precompiled.ts';

const USAGE = `Usage: node scripts/package/precompile.ts [--dist <dir>]
  --dist <dir>  the compiled package to write into (default dist/)`;

type Kind = 'body' | 'params';
type Modules = {
  contract: typeof import('../../src/sandbox/core/contract.ts');
  routes: typeof import('../../src/sandbox/core/document-routes.ts');
  ajv: typeof import('../../src/sandbox/core/ajv.ts');
  precompiled: typeof import('../../src/sandbox/core/precompiled.ts');
};

async function load(dist: string): Promise<Modules> {
  const core = (file: string) => import(pathToFileURL(path.join(dist, 'sandbox', 'core', file)).href);
  return {
    contract: await core('contract.js'),
    routes: await core('document-routes.js'),
    ajv: await core('ajv.js'),
    precompiled: await core('precompiled.js'),
  };
}

/** A request schema to compile: the export name of its validator, and its Ajv (bodies or parameters). */
interface Part {
  name: string;
  kind: Kind;
  schema?: JsonObject;
}

/** The routes with each request schema replaced by a key object, and the parts those keys stand for. */
function stubbed(
  document: string,
  routes: DocumentRoute[],
  KEY: string,
): { routes: DocumentRoute[]; marked: DocumentRoute[]; parts: Map<string, Part> } {
  const parts = new Map<string, Part>();
  const key = (operationId: string, part: string, kind: Kind) => {
    const name = `${operationId}_${part}`;
    const id = `${document}.${kind}/${name}`;
    if (parts.has(id)) throw new Error(`two request schemas named ${id}`);
    parts.set(id, { name, kind });
    return { [KEY]: id };
  };
  const marked: DocumentRoute[] = [];
  const stubs = routes.map((route) => {
    const whole = route.schema as Record<string, JsonObject | undefined>;
    const schema: Record<string, unknown> = {};
    const mark: Record<string, unknown> = {};
    for (const part of ['params', 'querystring', 'headers'] as const) {
      if (whole[part] === undefined) continue;
      schema[part] = key(route.operationId, part, 'params');
      mark[part] = { ...whole[part], ...(schema[part] as object) };
    }
    const body = whole.body;
    if (body !== undefined) {
      const content = body.content as Record<string, { schema: JsonObject }> | undefined;
      if (content) {
        const types = Object.keys(content);
        // One validator per media type (`_body`, or `_body0`, `_body1` ... when there are several).
        const stub = (i: number) => ({ schema: key(route.operationId, `body${types.length > 1 ? i : ''}`, 'body') });
        schema.body = { content: Object.fromEntries(types.map((type, i) => [type, stub(i)])) };
        mark.body = {
          content: Object.fromEntries(
            types.map((type) => [
              type,
              {
                ...content[type],
                schema: {
                  ...content[type]!.schema,
                  ...(schema.body as { content: Record<string, { schema: object }> }).content[type]!.schema,
                },
              },
            ]),
          ),
        };
      } else {
        schema.body = key(route.operationId, 'body', 'body');
        mark.body = { ...body, ...(schema.body as object) };
      }
    }
    marked.push({ ...route, schema: mark });
    return { ...route, schema };
  });
  return { routes: stubs, marked, parts };
}

/** Registers the marked routes on a fastify server and keeps each schema as it reaches the validator compiler. */
async function recordSchemas(marked: DocumentRoute[], parts: Map<string, Part>, KEY: string): Promise<void> {
  const app = Fastify({ logger: false, exposeHeadRoutes: false });
  app.setValidatorCompiler(({ schema, httpPart, method, url }) => {
    const { [KEY]: id, ...rest } = schema as JsonObject;
    const part = typeof id === 'string' ? parts.get(id) : undefined;
    if (!part) throw new Error(`${method} ${url}: the ${httpPart} schema fastify compiles has no precompiled key`);
    part.schema = rest;
    return () => true;
  });
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const route of marked) app.route({ method: route.method, url: route.url, schema: route.schema, handler: async () => null });
  await app.ready();
  await app.close();
  for (const [id, part] of parts) if (!part.schema) throw new Error(`fastify never compiled ${id}`);
}

/** What the sandbox's modules give the precompilation: its readers of the document and its Ajv. */
export interface Readers {
  readDocumentRoutes: Modules['routes']['readDocumentRoutes'];
  createAjv: Modules['ajv']['createAjv'];
  key: string;
}

/** A document's precompiled routes and its validator modules' code by file name (`openapi.body.cjs`), with the schema each validator was compiled from. */
export interface Precompiled {
  routes: PrecompiledRoutes;
  modules: Record<string, string>;
  /** By key (`openapi.body/createCard_body`): the schema as fastify hands it to the validator compiler. */
  schemas: Map<string, { kind: Kind; name: string; schema: JsonObject }>;
}

export async function precompileDocument(document: JsonObject, source: DocumentSource, readers: Readers): Promise<Precompiled> {
  const { routes, marked, parts } = stubbed(source.name, await readers.readDocumentRoutes(document), readers.key);
  await recordSchemas(marked, parts, readers.key);
  const modules: Record<string, string> = {};
  for (const kind of ['body', 'params'] as const) {
    const ajv = readers.createAjv(document, kind, { code: { source: true } });
    const exports: Record<string, string> = {};
    for (const part of parts.values()) {
      if (part.kind !== kind) continue;
      ajv.addSchema(part.schema!, part.name);
      exports[part.name] = part.name;
    }
    modules[`${source.name}.${kind}.cjs`] = `${standaloneCode.default(ajv, exports)}\n`;
  }
  const schemas = new Map([...parts].map(([id, part]) => [id, { kind: part.kind, name: part.name, schema: part.schema! }]));
  return { routes: { digest: source.digest, routes }, modules, schemas };
}

/** Writes dist/sandbox/precompiled/ for the two documents. */
export async function precompile(dist: string): Promise<string[]> {
  const { contract, routes: reader, ajv, precompiled } = await load(dist);
  const readers: Readers = { readDocumentRoutes: reader.readDocumentRoutes, createAjv: ajv.createAjv, key: precompiled.PRECOMPILED_KEY };
  const out = path.join(dist, 'sandbox', 'precompiled');
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const written: string[] = [];
  for (const document of [contract.sandboxDocument(), contract.simulationDocument()]) {
    const source = contract.documentSource(document)!;
    const { routes, modules } = await precompileDocument(document, source, readers);
    for (const [name, code] of Object.entries({ ...modules, [`${source.name}.routes.json`]: JSON.stringify(routes) })) {
      fs.writeFileSync(path.join(out, name), code);
      written.push(path.join(out, name));
    }
  }
  return written;
}

if (import.meta.main) {
  await runCli('precompile', USAGE, async () => {
    const args = parseCli(process.argv.slice(2), { usage: USAGE, options: { dist: { type: 'string' } } });
    if (!args) return 0;
    // Silent, as tsc before it: `npm pack --json` prints the lifecycle scripts' output into its JSON.
    await precompile(path.resolve(args.values.dist ?? path.join(ROOT, 'dist')));
    return 0;
  });
}
