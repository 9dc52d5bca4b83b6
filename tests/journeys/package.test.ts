// A partner's first hour with the package, on the Node of engines' floor (the npm package `node` of that exact
// version, installed into a folder of its own) and on Node 24 (the repository's pinned one): in an empty folder,
// the testing guide's (docs/testing.md) shell blocks run as it prints them, with the tarball packed from HEAD in
// place of the package's name, since it is not published; then its examples (`ts file=` blocks: a file with the
// sandbox in-process, a vitest suite and a node:test suite that share one, a node:test file), type-checked under strict TypeScript with the
// TypeScript the guide installs, and run as the guide says for that Node; then
// startSandbox() and the test kit from a consumer of the package; then every bin of package.json with --help.
//
// One deviation from the guide: the sandbox it starts on port 4020 is started here on port 0 (4020 may be in use on
// a shared machine), and the address it prints replaces 4020 in the commands that follow.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, inject } from 'vitest';
import type { Block } from '../docs/guide-runner.ts';
import {
  BINS,
  FLOOR,
  lastJsonLine,
  PACKAGE,
  SANDBOX_CONSUMER,
  SANDBOX_CONSUMER_RESULT,
  strictTsconfig,
  testingGuide,
} from '../package/support.ts';
import { background, journey, sh, timed, userEnv } from './support.ts';

const tarball = inject('tarball');
const clone = inject('clone');
const guide = testingGuide();
const cleanUp: string[] = [];
afterAll(() => {
  for (const dir of cleanUp) fs.rmSync(dir, { recursive: true, force: true });
});

/** The guide's shell block that holds `marker`: the journey fails here, naming it, when the guide no longer has it. */
function block(marker: string): Block {
  const found = guide.commands.find((b) => b.code.includes(marker));
  if (!found) throw new Error(`docs/testing.md has no shell block with \`${marker}\``);
  return found;
}

/** The Node from which the guide runs a TypeScript test file with `node --test` ("as it is from 22.18"). */
const stripsTypesFrom = (() => {
  const match = /as it is from (\d+)\.(\d+)/.exec(guide.text);
  if (!match) throw new Error('docs/testing.md no longer says from which Node it runs a TypeScript file as it is');
  return [Number(match[1]), Number(match[2])] as const;
})();

/** The Node from which the guide runs a node:test suite with `--test-global-setup` ("From Node 24 on"). */
const globalSetupFrom = (() => {
  const match = /From Node (\d+) on, `node --test` takes\s+`--test-global-setup`/.exec(guide.text);
  if (!match) throw new Error('docs/testing.md no longer says from which Node `node --test` takes --test-global-setup');
  return [Number(match[1]), 0] as const;
})();

const atLeast = (version: string, [major, minor]: readonly [number, number]) => {
  const [a = 0, b = 0] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
};

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A folder whose `node` is the npm package `node@<version>`, installed as a partner would into a folder of its own. */
async function installNode(version: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journey-node-'));
  cleanUp.push(dir);
  await sh(`npm init -y >/dev/null && npm install --no-audit --no-fund node@${version}`, { cwd: dir, check: true });
  return path.join(dir, 'node_modules', 'node', 'bin');
}

/** The testing guide, its examples, the sandbox and the test kit, and the bins, in an empty folder with `node` from `nodeBin`. */
async function packageJourney(nodeBin: string, version: string): Promise<void> {
  const env = userEnv({ PATH: `${nodeBin}${path.delimiter}${userEnv().PATH}`, NO_COLOR: '1' });
  const app = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'journey-package-')), 'app');
  cleanUp.push(path.dirname(app));
  fs.mkdirSync(app);
  const run = (command: string, timeoutMs?: number) => sh(command, { cwd: app, env, check: true, ...(timeoutMs ? { timeoutMs } : {}) });
  /** A guide block as one script that stops at its first failing line, as the reader typing it would. */
  const script = (b: Block) => `set -e\n${b.code}`;

  expect((await run('node --version')).output.trim()).toBe(`v${version}`);

  const setup = block('npm install --save-dev vitest');
  const install = setup.code.replace(new RegExp(`(npm install) ${PACKAGE.name.replace('/', '\\/')}(?=\\s|$)`), `$1 ${quote(tarball)}`);
  expect(install, 'the guide installs the package by its name').not.toBe(setup.code);
  await timed(`  setup as docs/testing.md prints it, on Node ${version}`, () => run(script({ ...setup, code: install })));
  const manifest = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8')) as {
    type?: string;
    devDependencies?: Record<string, string>;
  };
  expect(manifest.type).toBe('module');
  expect(Object.keys(manifest.devDependencies ?? {})).toEqual(expect.arrayContaining(['vitest', 'typescript']));

  for (const [file, code] of Object.entries(guide.files)) {
    fs.mkdirSync(path.dirname(path.join(app, file)), { recursive: true });
    fs.writeFileSync(path.join(app, file), code);
  }
  fs.writeFileSync(path.join(app, 'sandbox.ts'), SANDBOX_CONSUMER);
  expect(Object.keys(guide.files).sort()).toEqual([
    'cards.node.test.ts',
    'cards.test.ts',
    'node-suite/account.ts',
    'node-suite/customers.test.ts',
    'node-suite/freeze.test.ts',
    'node-suite/sandbox.global.ts',
    'suite/account.ts',
    'suite/customers.test.ts',
    'suite/freeze.test.ts',
    'suite/sandbox.global.ts',
    'vitest.suite.config.ts',
  ]);

  // Strict TypeScript, with the declarations of the package and of what the guide installs checked too.
  // The node:test suite's files import each other as `./account.ts`, as Node runs them.
  const tsconfig = strictTsconfig([...Object.keys(guide.files), 'sandbox.ts'], { allowImportingTsExtensions: true });
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const typed = await timed(`  tsc on the examples, on Node ${version}`, () => sh('npx tsc -p tsconfig.json', { cwd: app, env }));
  expect(typed.output.trim(), 'npx tsc -p tsconfig.json').toBe('');
  expect(typed.code).toBe(0);

  const vitest = await timed(`  the vitest example, on Node ${version}`, () => run(script(block('npx vitest run cards.test.ts'))));
  expect(vitest.output).toMatch(/Tests\s+1 passed \(1\)/);

  // One sandbox for the suite: the globalSetup and the files of the guide, each file an account of its own.
  const suite = await timed(`  one sandbox for a vitest suite, on Node ${version}`, () =>
    run(script(block('--config vitest.suite.config.ts'))),
  );
  expect(suite.output).toMatch(/Test Files\s+2 passed \(2\)/);
  expect(suite.output).toMatch(/Tests\s+2 passed \(2\)/);

  // One sandbox for a node:test suite, started by --test-global-setup, on the Nodes that have it.
  if (atLeast(version, globalSetupFrom)) {
    const nodeSuite = await timed(`  one sandbox for a node:test suite, on Node ${version}`, () =>
      run(script(block('--test-global-setup='))),
    );
    expect(nodeSuite.output).toMatch(/^[#ℹ] pass 2$/m);
    expect(nodeSuite.output).toMatch(/^[#ℹ] fail 0$/m);
  }

  // The node:test example against the bin's sandbox in another process, run as the guide says for this Node.
  const start = block('npx partner-api-sandbox --port');
  const sandbox = background(start.code.replace(/--port \d+/, '--port 0'), { cwd: app, env });
  let stopped = false;
  try {
    await sandbox.waitFor(/on http:\/\/127\.0\.0\.1:\d+\/v1/, 120_000);
    const origin = /on (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(sandbox.output())![1]!;
    const stripped = atLeast(version, stripsTypesFrom);
    const test = block(stripped ? 'node --test' : 'npx tsx --test');
    const ran = await timed(`  the node:test example (${stripped ? 'node --test' : 'npx tsx --test'}), on Node ${version}`, () =>
      run(script({ ...test, code: test.code.replace(/http:\/\/127\.0\.0\.1:4020/g, origin) })),
    );
    expect(ran.output).toMatch(/^[#ℹ] pass 1$/m);
    expect(ran.output).toMatch(/^[#ℹ] fail 0$/m);
  } finally {
    // Ctrl-C, as the reader stops it (npx then ends by the signal, so there is no exit status to compare).
    sandbox.interrupt();
    stopped = await Promise.race([
      sandbox.exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
    ]);
    sandbox.kill();
  }
  expect(stopped, `the sandbox did not stop within 10 s of Ctrl-C:\n${sandbox.output().slice(-2000)}`).toBe(true);
  // What the reader sees of the bin holds no warning of Node's (22.13 warns that SQLite is experimental).
  expect(sandbox.output()).not.toMatch(/Warning/);

  // startSandbox() and the test kit from a consumer, run as this Node runs a TypeScript file (tsx below 22.18,
  // which the guide has installed by now).
  const consumer = await timed(`  startSandbox() and the test kit, on Node ${version}`, () =>
    run(atLeast(version, stripsTypesFrom) ? 'node sandbox.ts' : 'npx tsx sandbox.ts'),
  );
  expect(lastJsonLine(consumer.output)).toEqual(SANDBOX_CONSUMER_RESULT);

  for (const bin of BINS) {
    const help = await run(`npx ${bin} --help`);
    expect(help.output, `npx ${bin} --help`).toMatch(new RegExp(`^Usage: ${bin} `));
  }
}

const NODE_24 = PACKAGE.devDependencies.node!;

journey(`the package on Node ${FLOOR}, the floor of engines (${PACKAGE.engines.node})`, async () => {
  const nodeBin = await timed(`  npm install node@${FLOOR}`, () => installNode(FLOOR));
  await packageJourney(nodeBin, FLOOR);
});

journey(`the package on Node ${NODE_24}, the repository's`, async () => {
  await packageJourney(path.join(clone, 'node_modules', 'node', 'bin'), NODE_24);
});
