// What the pack test (tests/package/pack.test.ts: the tarball in a new project, set up by the test) and the
// package journey (tests/journeys/package.test.ts: the tarball in an empty folder, set up as docs/testing.md
// prints it, on the Node of engines' floor and on Node 24) share: package.json as the package declares itself,
// the testing guide's files and commands, the strict compiler options a consumer type-checks with, and a
// consumer that starts the sandbox in-process and drives it with the client and the test kit.
import fs from 'node:fs';
import path from 'node:path';
import { nodeFloor } from '../../src/package-info.ts';
import { fencedBlocks, type Block } from '../docs/guide-runner.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  homepage: string;
  engines: { node: string };
  bin: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The package's bins, by name, from package.json. */
export const BINS = Object.keys(PACKAGE.bin);

/** The lowest Node the package supports, from engines: `22.13.0`. */
export const FLOOR = nodeFloor().join('.');

/** docs/testing.md: its `ts file=NAME` blocks by file name, and its shell blocks in order. */
export function testingGuide(): { files: Record<string, string>; commands: Block[]; text: string } {
  const text = fs.readFileSync(path.join(ROOT, 'docs', 'testing.md'), 'utf8');
  const blocks = fencedBlocks(text);
  const files = Object.fromEntries(
    blocks.flatMap((b) => {
      const file = /^ts\b.*\bfile=(\S+)/.exec(b.info)?.[1];
      return file ? [[file, b.code]] : [];
    }),
  );
  return { files, commands: blocks.filter((b) => /^(sh|bash|shell)\b/.test(b.info)), text };
}

/** Strict compiler options for a consumer of the package: ES modules as Node runs them, the package's own declarations checked. */
export function strictTsconfig(files: string[], compilerOptions: Record<string, unknown> = {}): object {
  return {
    compilerOptions: {
      target: 'ES2023',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
      ...compilerOptions,
    },
    files,
  };
}

/**
 * A consumer that starts the sandbox in-process through the `./sandbox` export and drives it with the client and
 * the test kit (the simulation client's data-or-throw `call`, the clock, and the error of the partner API's address
 * given in place of the simulation API's). It prints one JSON line; SANDBOX_CONSUMER_RESULT is what it prints.
 */
export const SANDBOX_CONSUMER = `
import { createPartnerClient } from '${PACKAGE.name}';
import { startSandbox, type RunningSandbox } from '${PACKAGE.name}/sandbox';
import { createSandboxClock, createSimulationClient } from '${PACKAGE.name}/testing';

const KEY = 'sk_test_packed';
const sandbox: RunningSandbox = await startSandbox({ port: 0, freezeClock: true });
const client = createPartnerClient({ apiKey: KEY, baseUrl: sandbox.baseUrl, retry: false });
const balances = await client.call.GET('/balance');
const missing = await client.GET('/cards/{code}', { params: { path: { code: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } } });
const sim = createSimulationClient({ apiKey: KEY, baseUrl: sandbox.simulationUrl });
const account = await sim.call.PATCH('/account', { body: { manual: true } });
const clock = await createSandboxClock({ apiKey: KEY, baseUrl: sandbox.simulationUrl }).read();
const wrongBase = await createSimulationClient({ apiKey: KEY, baseUrl: sandbox.baseUrl })
  .call.GET('/clock')
  .then(() => 'no error', (error: Error) => error.message);
await sandbox.close();
console.log(JSON.stringify({
  balances: balances.data.length,
  mode: balances.meta.mode,
  missing: missing.error?.error.code,
  manual: account.data.manual,
  frozen: clock.frozen,
  wrongBaseNamesSimulationUrl: wrongBase.includes('simulationUrl'),
}));
`;

export const SANDBOX_CONSUMER_RESULT = {
  balances: 5,
  mode: 'test',
  missing: 'RESOURCE_NOT_FOUND',
  manual: true,
  frozen: true,
  wrongBaseNamesSimulationUrl: true,
};

/** The last line of `output` that is a JSON object (a consumer's result, after any warning a Node printed). */
export function lastJsonLine(output: string): unknown {
  const line = output
    .trim()
    .split('\n')
    .reverse()
    .find((l) => /^\{.*\}$/.test(l.trim()));
  if (line === undefined) throw new Error(`no JSON line in:\n${output.slice(-2000)}`);
  return JSON.parse(line);
}
