// The journeys' common start: a clean clone of HEAD with `npm ci` run in it, as a new user has after the README's
// first command, and the package packed from it (`npm pack`, whose prepack compiles dist/), as a partner would
// install it before publication. Each step's time is printed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { cleanClone, removeLater, sh, timed } from './support.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A clean clone of HEAD in which `npm ci` has run. */
    clone: string;
    /** The package's tarball, packed from that clone. */
    tarball: string;
  }
}

export default async function setup(project: TestProject) {
  const clone = await timed('clean clone (git clone)', () => cleanClone());
  await timed('npm ci in the clone', () => sh('npm ci --no-audit --no-fund', { cwd: clone, check: true }));
  const packs = fs.mkdtempSync(path.join(os.tmpdir(), 'journey-pack-'));
  const packed = await timed('npm pack in the clone', () =>
    sh(`npm pack --silent --pack-destination ${packs}`, { cwd: clone, check: true }),
  );
  const tarball = path.join(packs, packed.output.trim().split('\n').at(-1)!);
  if (!fs.existsSync(tarball)) throw new Error(`npm pack did not write ${tarball}:\n${packed.output}`);
  project.provide('clone', clone);
  project.provide('tarball', tarball);
  return () => {
    for (const dir of [path.dirname(clone), packs]) removeLater(dir);
  };
}
