// The build's fast checks of the bundles keep what the slower tools they replace guaranteed: the schema
// validation (Ajv) finds what @asyncapi/parser and swagger-parser found, a dangling internal $ref is still
// an error, and the types are the text openapi-typescript's own entry point writes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_DEFAULTS, generateTypes } from '../../scripts/build/types.ts';
import { asyncApiProblems, danglingRefs, openApiProblems } from '../../scripts/build/validate.ts';
import { ROOT } from '../../scripts/lib/paths.ts';

const generated = (file: string) => path.join(ROOT, 'generated', file);
const read = (file: string) => JSON.parse(fs.readFileSync(generated(file), 'utf8')) as Record<string, any>;
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});
function writeTemp(name: string, doc: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-validate-'));
  temps.push(dir);
  fs.writeFileSync(path.join(dir, name), JSON.stringify(doc));
  return path.join(dir, name);
}

describe('schema validation of the bundles', () => {
  it('the committed bundles are valid', async () => {
    expect(await openApiProblems(generated('openapi.json'))).toEqual([]);
    expect(await openApiProblems(generated('sandbox.json'))).toEqual([]);
    expect(await asyncApiProblems(generated('asyncapi.json'))).toEqual([]);
  });

  it('AsyncAPI: one problem per wrong place, naming the property and the rule, not the oneOf around it', async () => {
    const doc = read('asyncapi.json');
    const [first, second] = Object.keys(doc.operations);
    doc.operations[first!].action = 'publish';
    doc.operations[second!].colour = 'blue';
    const problems = await asyncApiProblems(writeTemp('asyncapi.json', doc));
    expect(problems).toEqual([
      {
        message: '"action" property must be equal to one of the allowed values: "send", "receive"',
        pointer: `/operations/${first}/action`,
      },
      { message: `"${second}" property has the unknown property "colour"`, pointer: `/operations/${second}` },
    ]);
  });

  it('OpenAPI: a wrong value is reported at its place; a Server Variable description is valid', async () => {
    const doc = read('openapi.json');
    expect(Object.values(doc.servers[0].variables as Record<string, { description?: string }>).some((v) => v.description)).toBe(true);
    doc.paths['/cards'].get.operationId = 42;
    expect(await openApiProblems(writeTemp('openapi.json', doc))).toEqual([
      { message: '/paths/~1cards/get/operationId must be string', pointer: '/paths/~1cards/get/operationId' },
    ]);
  });

  it('a dangling internal $ref is reported with where it is; the committed bundles have none', () => {
    for (const api of ['openapi.json', 'sandbox.json', 'asyncapi.json']) expect(danglingRefs(read(api))).toEqual([]);
    const doc = read('openapi.json');
    delete doc.components.schemas.Card;
    const problems = danglingRefs(doc);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.startsWith("$ref '#/components/schemas/Card' at #/"))).toBe(true);
  });

  // The build checks the schema only; @asyncapi/parser's other rules run here, off the build's path.
  it('asyncapi.json also passes every rule of @asyncapi/parser', { timeout: 60_000 }, async () => {
    const { Parser, fromFile } = await import('@asyncapi/parser');
    const diagnostics = await fromFile(new Parser(), generated('asyncapi.json')).validate();
    expect(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('/')}: ${d.message}`)).toEqual([]);
  });
});

describe('types', () => {
  it('are the text openapiTS() writes with the CLI options (which lints and bundles again first)', { timeout: 60_000 }, async () => {
    const { default: openapiTS, astToString, COMMENT_HEADER } = await import('openapi-typescript');
    for (const api of ['openapi', 'sandbox']) {
      const file = generated(`${api}.json`);
      const reference = `${COMMENT_HEADER}${astToString(await openapiTS(pathToFileURL(file), { ...CLI_DEFAULTS, silent: true }))}`;
      expect(await generateTypes(file)).toBe(reference);
    }
  });
});
