// Thin wrapper over the Spectral CLI, run as a child process like the Redocly CLI (scripts/lib/redocly.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './paths.ts';
import type { RunResult } from './redocly.ts';

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
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...(echo ? {} : { NO_COLOR: '1', FORCE_COLOR: '0' }) },
      stdio: ['ignore', echo ? 'inherit' : 'pipe', echo ? 'inherit' : 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
