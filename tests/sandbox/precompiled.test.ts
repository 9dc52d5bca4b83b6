// The package's precompiled start (scripts/package/precompile.ts, read by src/sandbox/core/precompiled.ts) against
// what the sandbox does without it: the same routes, and validators that accept, refuse, coerce and fill in
// defaults exactly as the sandbox's own Ajv compiles them at run time, error for error. The inputs are each
// operation's request examples and, for every field of every request schema, values of each JSON type and of
// the contract's formats.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { documentSource, sandboxDocument, simulationDocument, type JsonObject } from '../../src/sandbox/core/contract.ts';
import { createAjv } from '../../src/sandbox/core/ajv.ts';
import { readDocumentRoutes } from '../../src/sandbox/core/document-routes.ts';
import { PRECOMPILED_KEY } from '../../src/sandbox/core/precompiled.ts';
import { requestExamples } from '../../src/sandbox/seed.ts';
import { precompileDocument } from '../../scripts/package/precompile.ts';

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

const require = createRequire(import.meta.url);

/** A validator module's exports, from its code (its `require`s resolved from here). */
function load(code: string): Record<string, Validate> {
  const module = { exports: {} as Record<string, Validate> };
  new Function('exports', 'require', 'module', code)(module.exports, require, module);
  return module.exports;
}

const SAMPLES: unknown[] = [
  'x',
  '',
  '12',
  '12.345',
  'true',
  1,
  0,
  -1,
  12.345,
  1e12,
  true,
  null,
  [],
  ['a', 'b'],
  {},
  '2026-03-01T09:00:00Z',
  '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  'https://hooks.example.test/x',
  'http://127.0.0.1:8080/x',
];

/** Inputs for a schema: the examples, then each property of an object (as the schema lists them) set to each sample, alone and over the first example. */
function inputs(schema: JsonObject, examples: JsonObject[]): unknown[] {
  const names = new Set<string>();
  const collect = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const s = node as JsonObject;
    for (const name of Object.keys((s.properties ?? {}) as JsonObject)) names.add(name);
    for (const key of ['oneOf', 'anyOf', 'allOf'] as const) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach(collect);
  };
  collect(schema);
  const base = examples[0] ?? {};
  const out: unknown[] = [...examples, {}, null, 'x', 1, [], { unknown_field: 1 }, { ...base, unknown_field: 1 }];
  for (const name of names) for (const sample of SAMPLES) out.push({ [name]: sample }, { ...base, [name]: sample });
  return out;
}

describe.each([
  ['openapi', sandboxDocument],
  ['sandbox', simulationDocument],
])('the precompiled start of generated/%s.json', (name, read) => {
  const document = read();
  const precompiled = precompileDocument(document, documentSource(document)!, { readDocumentRoutes, createAjv, key: PRECOMPILED_KEY });

  it('has the routes glue reads, each request schema standing for its validator', async () => {
    const { routes } = await precompiled;
    const glue = await readDocumentRoutes(document);
    expect(routes.digest).toBe(documentSource(document)!.digest);
    expect(routes.routes.map(({ operationId, method, url, openapiPath }) => ({ operationId, method, url, openapiPath }))).toEqual(
      glue.map(({ operationId, method, url, openapiPath }) => ({ operationId, method, url, openapiPath })),
    );
    const parts = (schema: object) => Object.keys(schema).filter((k) => ['params', 'querystring', 'headers', 'body'].includes(k));
    expect(routes.routes.map((route) => parts(route.schema))).toEqual(glue.map((route) => parts(route.schema)));
    expect(JSON.stringify(routes.routes)).toContain(`"${PRECOMPILED_KEY}":"${name}.`);
  });

  it('validates, coerces and reports errors as the sandbox compiles them at run time', async () => {
    const { modules, schemas } = await precompiled;
    const exported = Object.fromEntries(Object.entries(modules).map(([file, code]) => [file, load(code)]));
    const runtime = { body: createAjv(document, 'body'), params: createAjv(document, 'params') };
    const opOf = new Map((await readDocumentRoutes(document)).map((r) => [r.operationId, r]));
    let compared = 0;
    for (const [id, { kind, name: exportName, schema }] of schemas) {
      const standalone = exported[`${name}.${kind}.cjs`]![exportName]!;
      const compiled = runtime[kind].compile(schema) as Validate;
      const route = opOf.get(exportName.replace(/_[a-z]+\d*$/, ''))!;
      const examples = kind === 'body' && name === 'openapi' ? requestExamples(route.method, route.openapiPath) : [];
      for (const input of inputs(schema, examples)) {
        const [a, b] = [structuredClone(input), structuredClone(input)];
        const expected = { valid: compiled(a), errors: compiled.errors, data: a };
        expect({ valid: standalone(b), errors: standalone.errors, data: b }, `${id} ${JSON.stringify(input)}`).toEqual(expected);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
