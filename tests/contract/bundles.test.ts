// (a) The bundles built from spec/ are valid, self-contained documents.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { externalRefs, validateAsyncApi, validateOpenApi } from '../../scripts/build/validate.ts';
import { built, expectNoProblems } from './helpers.ts';

describe('bundles', () => {
  it('openapi.json is a valid OpenAPI 3.1 document (its official schema)', async () => {
    const { dir, openapi } = built();
    expect(openapi['openapi']).toBe('3.1.0');
    expectNoProblems(await validateOpenApi(path.join(dir, 'openapi.json')));
  });

  it('asyncapi.json is a valid AsyncAPI 3.0 document (its official schema)', async () => {
    const { dir, asyncapi } = built();
    expect(asyncapi['asyncapi']).toMatch(/^3\./);
    expectNoProblems(await validateAsyncApi(path.join(dir, 'asyncapi.json')));
  });

  it('keep only internal $refs', () => {
    const { openapi, asyncapi } = built();
    expectNoProblems(externalRefs(openapi));
    expectNoProblems(externalRefs(asyncapi));
  });

  it('the YAML and JSON bundles hold the same document', async () => {
    const { dir, openapi, asyncapi } = built();
    const { parse } = await import('yaml');
    expect(parse(fs.readFileSync(path.join(dir, 'openapi.yaml'), 'utf8'))).toEqual(openapi);
    expect(parse(fs.readFileSync(path.join(dir, 'asyncapi.yaml'), 'utf8'))).toEqual(asyncapi);
  });

  it('openapi.d.ts types the paths, the components and the webhooks', () => {
    const dts = fs.readFileSync(path.join(built().dir, 'openapi.d.ts'), 'utf8');
    for (const name of ['paths', 'webhooks', 'components', 'operations']) {
      expect(dts).toMatch(new RegExp(`^export (interface|type) ${name}\\b`, 'm'));
    }
  });
});
