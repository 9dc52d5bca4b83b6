// The package's sandbox entry, dist/sandbox/index.js, bundled (esbuild) into one module with the modules of dist/
// it imports; its npm dependencies and Node's modules stay imports. Node resolves, reads and compiles each ES
// module of a graph on its own, and the sandbox's graph is some 150 files of dist/, which cost a fresh process
// more than fastify's whole import (npm run bench:start). `npm run build:lib` runs it after tsc, from tsc's
// output, so the bundle is the same compiled code; the contract's value lists (generated/openapi-values.js and
// sandbox-values.js, built from the same contract) are bundled in with it. The modules the entry imports at their
// first use (the seed, the example receiver, the fixtures) become chunks in dist/sandbox/chunks/, still loaded at
// first use. The other files of dist/ stay as tsc wrote them: the bins, the test kit and the MCP server import
// them, and scripts/package/precompile.ts reads dist/sandbox/core/.
//
//   node scripts/package/bundle.ts [--dist <dir>]   (default dist/)
import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { parseCli, runCli } from '../lib/cli-parser.ts';
import { ROOT } from '../lib/paths.ts';

const USAGE = `Usage: node scripts/package/bundle.ts [--dist <dir>]
  --dist <dir>  the compiled package whose sandbox entry to bundle (default dist/)`;

/** The names the modules of `dist` import by name from each of Node's modules (`createHash` of node:crypto). */
function namedBuiltinImports(dist: string): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  const statement = /import\s+(?:\w+\s*,\s*)?\{([^}]*)\}\s*from\s*['"](node:[\w/]+)['"]/g;
  for (const file of fs.readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js')) continue;
    for (const [, list, module] of fs.readFileSync(path.join(dist, file), 'utf8').matchAll(statement)) {
      const set = names.get(module!) ?? names.set(module!, new Set()).get(module!)!;
      for (const item of list!.split(',')) {
        const name = item.trim().split(/\s+as\s+/)[0]!;
        if (name) set.add(name);
      }
    }
  }
  return names;
}

/**
 * Node's modules taken with `process.getBuiltinModule` (as src/node-http.ts does for node:http): an ES import of
 * one builds its namespace, which reads each of its exports, the lazy ones too (fs's streams, dns's resolvers).
 * Each is an ES module of its default and of the names the package imports from it, read once: esbuild would
 * copy every export of a CommonJS module into each module that imports it.
 */
function builtins(dist: string): Plugin {
  return {
    name: 'builtins',
    setup(build) {
      const named = namedBuiltinImports(dist);
      build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'builtin' }));
      build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
        const names = [...(named.get(args.path) ?? [])];
        const source = `const builtin = process.getBuiltinModule(${JSON.stringify(args.path)});\nexport default builtin;\n`;
        return { contents: names.length ? `${source}export const { ${names.join(', ')} } = builtin;\n` : source, loader: 'js' };
      });
    },
  };
}

/** Bundles `<dist>/sandbox/index.js` in place; returns the files written. */
export async function bundleSandbox(dist: string): Promise<string[]> {
  const sandbox = path.join(dist, 'sandbox');
  const out = fs.mkdtempSync(path.join(dist, '.bundle-'));
  try {
    const result = await build({
      entryPoints: [path.join(sandbox, 'index.js')],
      outdir: out,
      bundle: true,
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      format: 'esm',
      platform: 'node',
      target: 'node22',
      packages: 'external',
      logLevel: 'silent',
      metafile: true,
      plugins: [builtins(dist)],
    });
    const written = Object.keys(result.metafile.outputs).map((file) => path.relative(out, path.resolve(file)));
    fs.rmSync(path.join(sandbox, 'chunks'), { recursive: true, force: true });
    for (const file of written) {
      fs.mkdirSync(path.dirname(path.join(sandbox, file)), { recursive: true });
      fs.renameSync(path.join(out, file), path.join(sandbox, file));
    }
    return written.map((file) => path.join(sandbox, file));
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  await runCli('bundle', USAGE, async () => {
    const args = parseCli(process.argv.slice(2), { usage: USAGE, options: { dist: { type: 'string' } } });
    if (!args) return 0;
    // Silent, as tsc before it: `npm pack --json` prints the lifecycle scripts' output into its JSON.
    await bundleSandbox(path.resolve(args.values.dist ?? path.join(ROOT, 'dist')));
    return 0;
  });
}
