// What the package says about itself in package.json (its name, version, docs address and the Node versions
// it supports), read once at run time, so that the bin's --version and --help and the Node check below quote
// package.json instead of a copy of it. It imports nothing of the package: the sandbox's bin and entry load
// it before anything that needs a newer Node.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name: string;
  version: string;
  homepage?: string;
  repository?: { url?: string };
  bin?: Record<string, string>;
  engines?: { node?: string };
}

/**
 * The package's folder: the nearest one above this module that holds a package.json. src/ and dist/ sit right
 * under it, but a module of dist/ may be bundled into a file at another depth (dist/sandbox/index.js:
 * scripts/package/bundle.ts), so `import.meta.url` is not a fixed number of levels under it.
 */
export const PACKAGE_ROOT = packageRoot(path.dirname(fileURLToPath(import.meta.url)));

function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PACKAGE = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as PackageJson;

/**
 * The page of a guide of docs/ on the published docs site (package.json `homepage`): `sandbox.md` ->
 * https://partner-api.github.io/contract/guides/sandbox/, `webhooks.md#signing-test-deliveries` -> its section.
 * The site publishes docs/<name>.md at guides/<name>/ (scripts/docs/guides.ts; tests/package/metadata.test.ts
 * checks that both agree), without the passages meant for the repository's contributors.
 */
export function guideUrl(file: string, homepage = PACKAGE.homepage ?? ''): string {
  const [name = '', anchor] = file.split('#', 2);
  const site = homepage.endsWith('/') ? homepage : `${homepage}/`;
  return `${site}guides/${name.replace(/\.md$/, '')}/${anchor ? `#${anchor}` : ''}`;
}

/** The lowest Node version of `engines.node` (">=22.13.0" -> [22, 13, 0]). */
export function nodeFloor(range = PACKAGE.engines?.node ?? ''): [number, number, number] {
  const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(range);
  if (!match) throw new Error(`package.json engines.node has no version: "${range}"`);
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

/**
 * The one line that says `who` needs a newer Node, or undefined when `version` (default: this Node's) is at
 * least the floor of `engines.node`. The sandbox needs `node:sqlite` without a flag, which Node has from 22.13.
 */
export function nodeVersionProblem(who: string, version = process.versions.node, range = PACKAGE.engines?.node): string | undefined {
  const floor = nodeFloor(range);
  const have = version.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > floor[i]!) return undefined;
    if ((have[i] ?? 0) < floor[i]!) {
      return `${who} needs Node.js ${floor[0]}.${floor[1]} or later (for node:sqlite); this is Node.js ${version}.`;
    }
  }
  return undefined;
}

/**
 * Throws an Error whose message is the line of `nodeVersionProblem` when this Node is too old. The error has
 * no stack frames: a test runner or a logger then prints the one line, and nothing of the package's insides.
 */
export function requireNode(who: string): void {
  const problem = nodeVersionProblem(who);
  if (problem === undefined) return;
  const error = new Error(problem);
  error.stack = `Error: ${problem}`;
  throw error;
}
