// The conformance tool and the set-up graph it shares with the sandbox have no import cycle: each module can be
// read (and loaded) after the ones it imports. The graph is built from the import and export-from statements
// (TypeScript's preProcessFile, type-only imports included), over every .ts file the roots reach.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The local modules a file imports, as absolute paths (`.js` specifiers of src/ mapped to their `.ts`). */
function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')))
    .filter((target) => target.endsWith('.ts') && fs.existsSync(target));
}

/** Every file reachable from the roots, with its local imports. */
function importGraph(roots: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const queue = [...roots];
  while (queue.length) {
    const file = queue.pop()!;
    if (graph.has(file)) continue;
    const imports = localImports(file);
    graph.set(file, imports);
    queue.push(...imports);
  }
  return graph;
}

/** The cycles of a graph, each as the chain of files that closes it (depth-first search, one per back edge). */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

const tsFiles = (dir: string) =>
  fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(ROOT, dir, f));

describe('import graph', () => {
  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no cycle in the conformance tool, the set-up graph and what they import', () => {
    const roots = [...tsFiles('scripts/conformance'), ...tsFiles('src/setup')];
    const graph = importGraph(roots);
    expect(graph.size).toBeGreaterThan(roots.length);
    const rel = (f: string) => path.relative(ROOT, f);
    expect(cycles(graph).map((c) => c.map(rel).join(' -> '))).toEqual([]);
  });
});
