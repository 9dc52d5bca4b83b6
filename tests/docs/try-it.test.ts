// What the "Try it" console reads from the page (scripts/docs/try-it.ts), from the docs copies of both bundles:
// every operation, at the base path the sandbox serves it at, with the contract's examples, the Idempotency-Key
// where the operation declares it, and the response headers it declares. The console itself is tested in a
// browser (tests/browser/try-it.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsDocument } from '../../scripts/docs/reference.ts';
import { simulationDocsDocument } from '../../scripts/docs/simulation-reference.ts';
import { DEFAULT_KEY, IDEMPOTENCY_HEADER, tryItData, withTryIt } from '../../scripts/docs/try-it.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel } from '../../src/contract/model.ts';

const read = (file: string): JsonObject => JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', file), 'utf8'));
const openapi = read('openapi.json');
const sandbox = read('sandbox.json');
const partner = tryItData(docsDocument(openapi));
const simulation = tryItData(simulationDocsDocument(sandbox));

describe('the data of the Try it console', () => {
  it('has every operation of both documents, by its Redoc section', () => {
    for (const [doc, data] of [
      [openapi, partner],
      [sandbox, simulation],
    ] as const) {
      const ids = contractModel(doc).operations.map((o) => o.operationId.toLowerCase());
      expect(
        Object.keys(data.operations)
          .map((id) => id.split('/')[2])
          .sort(),
      ).toEqual(ids.sort());
    }
  });

  it('sends each operation to the base path the sandbox serves it at: /v1, /api/v1 for gift cards, /sandbox', () => {
    for (const op of Object.values(partner.operations)) {
      expect(op.basePath, `${op.method} ${op.path}`).toBe(op.path.startsWith('/gift-cards') ? '/api/v1' : '/v1');
    }
    expect(new Set(Object.values(simulation.operations).map((op) => op.basePath))).toEqual(new Set(['/sandbox']));
    expect(partner.sandboxOrigin).toBe('http://127.0.0.1:4020');
    expect(partner.defaultKey).toBe(DEFAULT_KEY);
  });

  it('fills an Idempotency-Key where the contract declares it (every POST), and on no other operation', () => {
    for (const op of Object.values(partner.operations)) {
      const declared = op.parameters.some((p) => p.in === 'header' && p.name === IDEMPOTENCY_HEADER);
      expect(declared, `${op.method} ${op.path}`).toBe(op.method === 'POST');
    }
  });

  it("starts from the contract's examples: the request body's first example, the path parameters'", () => {
    const create = partner.operations['/customers/createcustomer']!;
    const first = contractModel(openapi).operation('createCustomer')?.requestBody?.json?.examples[0];
    expect(first).toBeDefined();
    expect(JSON.parse(create.body!)).toEqual(first!.value);
    expect(create.bodyRequired).toBe(true);
    const card = partner.operations['/cards/getcard']!;
    const code = card.parameters.find((p) => p.in === 'path' && p.name === 'code');
    expect(code?.required).toBe(true);
    expect(code?.example).toMatch(/^[0-9a-f-]{36}$/);
    expect(partner.operations['/balances/listbalances']!.body).toBeUndefined();
  });

  it('shows the response headers each operation declares', () => {
    const create = partner.operations['/customers/createcustomer']!;
    expect(create.headers).toEqual(expect.arrayContaining(['Idempotent-Replayed', 'X-RateLimit-Remaining', 'Retry-After']));
  });

  it('goes into the page before </body>, with no example able to end its script element', () => {
    const page = withTryIt('<html><body><div id="redoc"></div>\n</body></html>', {
      ...partner,
      operations: { '/x/y': { ...partner.operations['/customers/createcustomer']!, body: '"</script><script>alert(1)</script>"' } },
    });
    const data = /<script type="application\/json" id="try-it-data">([\s\S]*?)<\/script>/.exec(page)![1]!;
    expect(JSON.parse(data).operations['/x/y'].body).toContain('</script>');
    expect(page.indexOf('try-it.js')).toBeLessThan(page.indexOf('</body>'));
    expect(() => withTryIt('<html></html>', partner)).toThrow(/<\/body>/);
  });
});
