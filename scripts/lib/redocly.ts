// Thin wrappers over the Redocly CLI (lint and bundle), run as a child process so the output is the
// same as a human gets from `npx redocly ...`.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { REDOCLY_BIN, type ApiName } from './paths.ts';

export interface RunResult {
  code: number;
  output: string;
}

/**
 * Runs a Node CLI (`node <args>`) in `cwd` and collects its output. With `echo`, output goes to this
 * process's stdout/stderr as it comes; without, colours are off so the text can be shown later.
 */
export function runNodeCli(args: string[], cwd: string, echo = false, env: Record<string, string> = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...env, ...(echo ? {} : { NO_COLOR: '1', FORCE_COLOR: '0' }) },
      stdio: ['ignore', echo ? 'inherit' : 'pipe', echo ? 'inherit' : 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Runs `redocly <args>` in `cwd`. With `echo`, output goes to this process's stdout/stderr as it comes. */
export function redocly(args: string[], cwd: string, echo = false): Promise<RunResult> {
  return runNodeCli([REDOCLY_BIN, ...args], cwd, echo, { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' });
}

/** `redocly lint <apis...>`: both documents with the rules of the workspace's redocly.yaml. */
export function lint(cwd: string, apis: readonly ApiName[], extraArgs: string[] = [], echo = false) {
  return redocly(['lint', ...apis, ...extraArgs], cwd, echo);
}

/** `redocly bundle <apis...> -o <dir>`: every API in one process, each external $ref resolved into
 * components, into `<dir>/<api>.yaml`. */
export function bundleAll(cwd: string, apis: readonly ApiName[], outDir: string, echo = false) {
  return redocly(['bundle', ...apis, '--output', outDir, '--ext', 'yaml'], cwd, echo);
}

/**
 * `redocly lint` of bundles (`<dir>/<api>.yaml`, as the build writes them) with the rules of a workspace's
 * redocly.yaml: a copy of it whose API roots are the bundles, written into `dir`.
 */
export async function lintBundles(workspace: string, dir: string, apis: readonly ApiName[], extraArgs: string[] = [], echo = false) {
  const config = parseDocument(await readFile(path.join(workspace, 'redocly.yaml'), 'utf8'));
  for (const api of apis) config.setIn(['apis', api, 'root'], `${api}.yaml`);
  await writeFile(path.join(dir, 'redocly.yaml'), config.toString());
  return lint(dir, apis, extraArgs, echo);
}
