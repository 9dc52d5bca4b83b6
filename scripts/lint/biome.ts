// Biome over the project's own TypeScript and JavaScript (biome.jsonc says which files and rules): `biome ci`,
// the formatter's check and the linter in one read-only pass, through the locally installed binary, so that CI
// and a machine run the pinned version.
import path from 'node:path';
import { ROOT } from '../lib/paths.ts';
import { runNodeCli, type RunResult } from '../lib/redocly.ts';

/** Biome's npm entry point, which starts the platform's binary from its optional dependency. */
export const BIOME_BIN = path.join(ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');

/**
 * `biome ci .` in `cwd`: non-zero on any formatting difference or lint finding, warnings included. Colours only
 * on a terminal: Biome writes them to a pipe or a file too.
 */
export function biomeCi(cwd: string, echo = false): Promise<RunResult> {
  const colours = echo && process.stdout.isTTY ? [] : ['--colors=off'];
  return runNodeCli([BIOME_BIN, 'ci', '--error-on-warnings', ...colours, '.'], cwd, echo);
}
