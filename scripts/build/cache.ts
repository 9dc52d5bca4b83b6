// Results of the build's slow steps (validating a bundle, generating its types), kept by the content of
// their input: a bundle that is byte for byte one that already passed is not validated again. The key
// also covers the lock file and the code of the steps, so a new validator version or rule re-runs them.
// Stored in node_modules/.cache/contract-build/; CONTRACT_BUILD_CACHE=off turns it off.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/paths.ts';

const DIR = path.join(ROOT, 'node_modules', '.cache', 'contract-build');
const STEP_CODE = ['validate.ts', 'types.ts', 'asyncapi-worker.ts'].map((f) => path.join(import.meta.dirname, f));

let toolsHash: string | undefined;
/** The lock file and the steps' code: what, besides the bundle, decides a step's result. */
function tools(): string {
  toolsHash ??= createHash('sha256')
    .update([path.join(ROOT, 'package-lock.json'), ...STEP_CODE].map((f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : f)).join('\0'))
    .digest('hex');
  return toolsHash;
}

const enabled = () => process.env['CONTRACT_BUILD_CACHE'] !== 'off';

/** The cache key of a step on an input file. */
export function stepKey(step: string, inputFile: string): string {
  return createHash('sha256').update(`${step}\0${tools()}\0`).update(fs.readFileSync(inputFile)).digest('hex');
}

/** What a step stored for this key, or undefined. */
export function recall(key: string): string | undefined {
  if (!enabled()) return undefined;
  try {
    return fs.readFileSync(path.join(DIR, key), 'utf8');
  } catch {
    return undefined;
  }
}

/** Stores a step's result (only successes are stored). A cache that cannot be written is skipped. */
export function remember(key: string, value: string): void {
  if (!enabled()) return;
  try {
    fs.mkdirSync(DIR, { recursive: true });
    const tmp = path.join(DIR, `${key}.${process.pid}.tmp`);
    fs.writeFileSync(tmp, value);
    fs.renameSync(tmp, path.join(DIR, key));
  } catch {
    // a read-only node_modules: the build still works, only slower
  }
}
