// One reader of the contract (docs/structure.md, src/contract/): the contract model (src/contract/model.ts) is
// the only code that follows a bundle's `$ref`s or walks its `paths`, `webhooks` and `components`; every other
// module asks it (`contractModel(doc)`: operations, parameters, responses, examples, components, `resolve`).
// Read from the source, so a new `deref(`, a `node['$ref']` or a `doc.paths[...]` outside src/contract/ fails here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.ts';

/**
 * Where reading the raw document is the job: the model itself, its test (which checks each answer against the
 * node it names), and the build, which assembles the multi-file source.
 */
const OWNERS = ['src/contract/', 'tests/contract/model.test.ts', 'scripts/build/'];

/**
 * Documents that are not a bundle, whose `$ref`s these follow themselves:
 * - scripts/conformance/workflows.ts and scripts/docs/workflows.ts: an Arazzo workflow's `$ref` to its own
 *   components (inputs, parameters), not the OpenAPI document's;
 * - scripts/diff/load.ts: the multi-file source spec/ at a git ref, dereferenced as the build does.
 */
const NOT_YET_REF = ['scripts/conformance/workflows.ts', 'scripts/docs/workflows.ts', 'scripts/diff/load.ts'];

/** Walking `paths`, `webhooks` or `components`: the same, and these, each with why. */
const NOT_YET_WALK = [
  ...NOT_YET_REF,
  // A document a script wrote, whose sections the test checks: the filtered bundle of conformance --only
  // (scripts/conformance/select.ts), the docs copy's badges and servers (scripts/docs/).
  'tests/cli/errors.test.ts',
  'tests/docs/provisional.test.ts',
  'tests/docs/servers.test.ts',
  // A copy of a document edited: the edit is the point (the model reads, it does not write): the Postman
  // collection's input without the webhooks, and documents broken on purpose.
  'scripts/docs/collection.ts',
  'tests/build/validate.test.ts',
  'tests/contract/broken-spec.test.ts',
];

/** A `$ref` followed by hand: a `deref(`, the key read (`['$ref']`, `.$ref`), or the old entry list of the bundle. */
const RESOLVES_REF = /\bderef\(|\[['"]\$ref['"]\]|\.\$ref\b|\boperationEntries\(/;

/**
 * A section of a document read by hand: `doc.paths`, `bundle?.components`, `doc['webhooks']`. The model's own
 * lists (`model.webhooks`, `contractModel(doc).webhooks`), an AsyncAPI document's (which the OpenAPI model does
 * not read) and Stripe's SDK (`stripe.webhooks`, beside which a bench measures) are not.
 */
const WALKS =
  /(?<![\w$])(?!(?:model|MODEL|asyncapi|stripe)\b)[A-Za-z_$][\w$]*\??\.(paths|webhooks|components)\b|(?<!asyncapi)\[['"](paths|webhooks|components)['"]\]/;

const THIS_FILE = 'tests/contract/model-readers.test.ts';

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : sources(rel);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [rel] : [];
  });
}

const FILES = ['src', 'scripts', 'tests'].flatMap(sources).filter((f) => f !== THIS_FILE && !OWNERS.some((o) => f.startsWith(o)));
const under = (list: string[]) => (file: string) => list.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));

/** The lines of a file that match, comments left out: `file:line: text`. */
function matches(file: string, pattern: RegExp): string[] {
  return fs
    .readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .flatMap((line, i) => (!/^\s*(\/\/|\*|\/\*)/.test(line) && pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('the contract model is the one reader of a bundle', () => {
  it('finds the sources, the readers the model replaced among them', () => {
    expect(FILES.length).toBeGreaterThan(200);
    expect(FILES).toContain('src/sandbox/core/contract.ts');
  });

  it('no module outside src/contract/ follows a $ref itself', () => {
    expect(FILES.filter((f) => !under(NOT_YET_REF)(f)).flatMap((f) => matches(f, RESOLVES_REF))).toEqual([]);
  });

  it("no module outside src/contract/ walks a document's paths, webhooks or components", () => {
    expect(FILES.filter((f) => !under(NOT_YET_WALK)(f)).flatMap((f) => matches(f, WALKS))).toEqual([]);
  });

  it('names only paths that still hold a reader to migrate: a migrated one leaves the list', () => {
    const stale = (list: string[], pattern: RegExp) =>
      list.filter((entry) => !FILES.filter(under([entry])).some((f) => matches(f, pattern).length > 0));
    expect(stale(NOT_YET_REF, RESOLVES_REF)).toEqual([]);
    expect(
      stale(
        NOT_YET_WALK.filter((e) => !NOT_YET_REF.includes(e)),
        WALKS,
      ),
    ).toEqual([]);
  });

  it('catches each way of reading by hand, and not the model', () => {
    for (const line of ['const item = deref(doc, node);', "if (node['$ref']) {", 'const r = p.$ref;', 'operationEntries(doc)']) {
      expect(RESOLVES_REF.test(line), line).toBe(true);
    }
    for (const line of ["const op = doc.paths['/cards'].post;", 'bundle?.components', "openapi['webhooks']"]) {
      expect(WALKS.test(line), line).toBe(true);
    }
    for (const line of [
      'model.webhooks.map((w) => w.path)',
      'contractModel(doc).webhooks',
      "asyncapi['components']",
      'model.resolve(node)',
    ]) {
      expect(RESOLVES_REF.test(line) || WALKS.test(line), line).toBe(false);
    }
  });
});
