// Every `x-` extension used in spec/ (and redocly.yaml) is documented in docs/extensions.md.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../scripts/lib/paths.ts';
import { expectNoProblems } from './helpers.ts';

function extensionsIn(node: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) extensionsIn(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      // Example values are data, not the document's own keys.
      if (key !== 'examples' && key !== 'example' && key !== 'value') extensionsIn(value, found);
    }
  }
  return found;
}

it('docs/extensions.md documents every x- extension of spec/ and redocly.yaml', () => {
  const files = fs
    .readdirSync(path.join(ROOT, 'spec'), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ya?ml$/.test(f) && !path.basename(f).startsWith('.proto-'))
    .map((f) => path.join(ROOT, 'spec', f));
  const used = new Set<string>();
  for (const file of [...files, path.join(ROOT, 'redocly.yaml')]) {
    extensionsIn(parse(fs.readFileSync(file, 'utf8')), used);
  }
  expect(used.size).toBeGreaterThan(0);
  const docs = fs.readFileSync(path.join(ROOT, 'docs', 'extensions.md'), 'utf8');
  const documented = new Set([...docs.matchAll(/^#+ `(x-[\w-]+)`/gm)].map((m) => m[1]));
  expectNoProblems([...used].filter((x) => !documented.has(x)).sort());
});
