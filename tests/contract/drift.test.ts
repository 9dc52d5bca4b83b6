// generated/ is committed; it must be byte for byte what spec/ builds.
import path from 'node:path';
import { it } from 'vitest';
import { compareOutputs } from '../../scripts/build/drift.ts';
import { GENERATED_DIR, ROOT } from '../../scripts/lib/paths.ts';
import { built, expectNoProblems } from './helpers.ts';

it('generated/ is up to date with spec/ (run `npm run build` when this fails)', () => {
  const { dir, files } = built();
  expectNoProblems(compareOutputs(dir, path.join(ROOT, GENERATED_DIR), files));
});
