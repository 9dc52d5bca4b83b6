// Thin wrapper over the Spectral CLI, run as a child process like the Redocly CLI (scripts/lib/redocly.ts).
import path from 'node:path';
import { ROOT } from './paths.ts';
import { runNodeCli, type RunResult } from './redocly.ts';

/** The Spectral CLI entry point, run with the current Node (24 under npm scripts). */
export const SPECTRAL_BIN = path.join(ROOT, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js');

/** The ruleset: the repository's, where the rulesets it extends resolve from node_modules. */
export const SPECTRAL_RULESET = path.join(ROOT, '.spectral.yaml');

/**
 * `spectral lint <file> --ruleset .spectral.yaml --fail-severity warn`: fails on any problem, warnings
 * included. Extra arguments pass through (`--format json`).
 */
export function spectralLint(file: string, extraArgs: string[] = [], echo = false): Promise<RunResult> {
  const args = [SPECTRAL_BIN, 'lint', file, '--ruleset', SPECTRAL_RULESET, '--fail-severity', 'warn', ...extraArgs];
  return runNodeCli(args, ROOT, echo);
}
