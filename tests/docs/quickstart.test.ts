// docs/quickstart.md, run as a partner would: every block of the guide, in order, in one bash process run as a
// script (no job control, as when the commands are pasted into a file), in a new project directory, against a
// sandbox on a free port; each output the guide shows is checked, and right after the guide's last block (the
// stop commands) a probe checks that nothing it started still listens.
//
// The project stands in for one where the package is installed, so that this runs in `npm test`, in seconds, on
// the sources: the guide's install blocks are left out, `node_modules/.bin/partner-api-sandbox` runs this
// repository's src/sandbox/cli.ts in one process (as the installed bin does), `tsx` is this repository's, `node`
// is its Node 24 (the partner's Node, 22.13 or later), and tsconfig.json maps `@partner-api/contract` onto src/.
// The journey tests/journeys/quickstart.test.ts runs the same steps with the install block, in an empty folder,
// with the package packed from a clean clone.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.ts';
import { PACKAGE } from '../../src/package-info.ts';
import { extractSteps, installSteps, runSteps, unrunBlocks, type RunResult } from './guide-runner.ts';
import { freePorts, PROBE, printed as printedBy, quickstartSteps, type QuickstartPorts } from './quickstart-guide.ts';

const GUIDE = path.join(ROOT, 'docs', 'quickstart.md');
/** This repository's Node 24: the partner's `node`. */
const NODE = path.join(ROOT, 'node_modules', 'node', 'bin', 'node');

/** A project directory with the package "installed" (see above). */
function partnerProject(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quickstart-'));
  const bin = path.join(dir, 'node_modules', '.bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'partner-app', private: true, type: 'module' }));
  fs.symlinkSync(NODE, path.join(bin, 'node'));
  fs.symlinkSync(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(bin, 'tsx'));
  fs.symlinkSync(path.join(ROOT, 'node_modules', 'tsx'), path.join(dir, 'node_modules', 'tsx'));
  const sandbox = path.join(bin, 'partner-api-sandbox');
  const loader = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  fs.writeFileSync(sandbox, `#!/bin/sh\nexec "${NODE}" --import "${loader}" "${path.join(ROOT, 'src', 'sandbox', 'cli.ts')}" "$@"\n`);
  fs.chmodSync(sandbox, 0o755);
  const paths = {
    '@partner-api/contract': [path.join(ROOT, 'src', 'index.ts')],
    '@partner-api/contract/webhooks': [path.join(ROOT, 'src', 'webhooks', 'index.ts')],
  };
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, paths } }),
  );
  return dir;
}

/** The environment of a partner's terminal: no npm script variables, no node_modules/.bin of this repository. */
function terminalEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && !/^VITEST/.test(k)));
  env.PATH = [
    path.dirname(NODE),
    ...(process.env.PATH ?? '').split(path.delimiter).filter((p) => !p.includes(`node_modules${path.sep}.bin`)),
  ].join(path.delimiter);
  env.npm_config_offline = 'true'; // a bin that is not installed fails at once instead of being fetched
  return env;
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const markdown = fs.readFileSync(GUIDE, 'utf8');
let dir: string;
let ports: QuickstartPorts;
let run: RunResult;

beforeAll(async () => {
  dir = partnerProject();
  ports = await freePorts();
  run = await runSteps(quickstartSteps(markdown, { install: undefined, ports }), { cwd: dir, env: terminalEnv(), timeoutMs: 60_000 });
  console.log(`quickstart: ${run.results.length} blocks, ${run.commands} commands, ${Math.round(run.ms)} ms`);
}, 90_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** What the block whose code contains `text` printed. */
function printed(text: string): string {
  const out = printedBy(run, text);
  expect(out, `a block with ${text}`).toBeDefined();
  return out!;
}

describe('docs/quickstart.md', () => {
  it('has no code block that the test does not run', () => {
    expect(unrunBlocks(markdown).map((b) => `line ${b.line}: ${b.info}`)).toEqual([]);
  });

  it('runs every block but the install ones, and each prints what the guide shows', () => {
    expect(run.problems).toEqual([]);
    expect(run.results.length).toBe(installSteps(extractSteps(markdown), undefined).length + 1);
    expect(run.results.every((r) => r.finished)).toBe(true);
  });

  it('installs the published package, or before publication the tarball that npm pack writes in a clone', () => {
    const installs = extractSteps(markdown).flatMap((s) => (s.kind === 'commands' && s.install ? [[s.install, s.code]] : []));
    expect(installs.map(([way]) => way)).toEqual(['published', 'tarball']);
    expect(installs[0]![1]).toContain(`npm install ${PACKAGE.name} tsx`);
    // npm pack names the file after the package's name (scope included) and version.
    const file = `${PACKAGE.name.replace(/^@/, '').replace('/', '-')}-${PACKAGE.version}.tgz`;
    expect(installs[1]![1]).toMatch(new RegExp(`^TARBALL=\\S+/${file.replace(/\./g, '\\.')}\nnpm install "\\$TARBALL" tsx$`));
    expect(markdown).toContain(`\`${file}\``);
  });

  it('ends with the card active and holding 130.00 USD, after a refused and an accepted withdrawal', () => {
    const withdraw = printed('/withdraw')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(withdraw).toContainEqual({ code: 'VALIDATION_ERROR', reason: 'card_not_active', current_status: 'frozen' });
    const after = printed('/unfreeze')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(after.at(-1)).toEqual({ status: 'active', balance: 130 });
  });

  it('receives and verifies every event the sandbox sent, and nothing is rejected', () => {
    // The guide prints `verified <type> <count>` (and `rejected: <word> <count>`) per type: events arrive in any order.
    const counts = printed('grep -q card.withdrawal.completed receiver.log')
      .trim()
      .split('\n')
      .filter((l) => /^(verified|rejected:) /.test(l));
    expect(counts.filter((l) => l.startsWith('rejected'))).toEqual([]);
    const verified = new Map(counts.map((l) => l.split(' ')).map(([, type, count]) => [type, Number(count)] as const));
    for (const type of [
      'kyc.approved',
      'poa.approved',
      'card.activated',
      'card.topup.completed',
      'card.frozen',
      'card.unfrozen',
      'card.withdrawal.completed',
    ]) {
      expect(verified.get(type)).toBe(1);
    }
    expect(verified.get('balance.debited')).toBe(4);
    const total = [...verified.values()].reduce((a, b) => a + b, 0);
    expect(printed('diff sent.txt').trim()).toBe(`all ${total} events received and verified`);
  });

  it('stops everything it started: right after the stop block, in the same script, both ports are free', async () => {
    const last = extractSteps(markdown).at(-1)!;
    expect(last.kind === 'commands' && last.code).toMatch(/\bkill\b/);
    expect(printed(PROBE)).toBe('');
    expect(await refused(ports.sandbox)).toBe(true);
    expect(await refused(ports.receiver)).toBe(true);
  });
});
