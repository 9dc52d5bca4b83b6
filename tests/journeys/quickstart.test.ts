// docs/quickstart.md from nothing: in an empty folder, the package installed as the guide tells a reader to before
// it is published (the tarball `npm pack` wrote in a clean clone, the one path the guide asks the reader to fill
// in, substituted through its TARBALL variable), then every other block of the guide as printed, its stop block
// last, on free ports. Each output the guide shows is checked, a curl error the reader would see fails it, and
// nothing the guide started may still listen after its stop block. tests/docs/quickstart.test.ts runs the same
// steps in `npm test` against the sources, without the install.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, inject } from 'vitest';
import { runSteps } from '../docs/guide-runner.ts';
import { freePorts, printed, PROBE, quickstartSteps } from '../docs/quickstart-guide.ts';
import { journey, listening, userEnv } from './support.ts';

const clone = inject('clone');
const tarball = inject('tarball');

journey('quickstart: docs/quickstart.md in an empty folder, the package installed from its tarball', async () => {
  // The guide as committed, beside the package packed from the same commit.
  const markdown = fs.readFileSync(path.join(clone, 'docs', 'quickstart.md'), 'utf8');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journey-quickstart-'));
  try {
    const ports = await freePorts();
    const steps = quickstartSteps(markdown, { install: 'tarball', ports, values: { TARBALL: tarball } });
    // The reader's Node is one the guide asks for (22.13 or later): the clone's pinned Node 24, first on PATH.
    const env = userEnv();
    env.PATH = [path.join(clone, 'node_modules', 'node', 'bin'), env.PATH].join(path.delimiter);
    const run = await runSteps(steps, { cwd: dir, env, timeoutMs: 480_000 });
    console.log(`quickstart journey: ${run.results.length} blocks, ${run.commands} commands, ${(run.ms / 1000).toFixed(1)} s`);
    expect(run.problems).toEqual([]);
    expect(run.results.length).toBe(steps.length);
    expect(run.results[0]!.step).toMatchObject({ kind: 'commands', install: 'tarball' });
    expect(fs.existsSync(path.join(dir, 'node_modules', '.bin', 'partner-api-sandbox'))).toBe(true);
    // Right after the stop block, in the same script, and again from here: nothing listens.
    expect(printed(run, PROBE)).toBe('');
    expect(await listening(ports.sandbox)).toBe(false);
    expect(await listening(ports.receiver)).toBe(false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
