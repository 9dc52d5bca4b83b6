// Drift: generated/ is committed, and must be byte for byte what spec/ builds.
import fs from 'node:fs';
import path from 'node:path';

/** Compares the files of `expectedDir` with the same names in `actualDir`; returns one message per drifting file. */
export function compareOutputs(expectedDir: string, actualDir: string, files: readonly string[], label = 'generated'): string[] {
  const drift: string[] = [];
  for (const file of files) {
    const expected = path.join(expectedDir, file);
    const actual = path.join(actualDir, file);
    if (!fs.existsSync(actual)) {
      drift.push(`${label}/${file}: missing (run npm run build)`);
    } else if (!fs.readFileSync(expected).equals(fs.readFileSync(actual))) {
      drift.push(`${label}/${file}: differs from what spec/ builds (run npm run build)`);
    }
  }
  return drift;
}
