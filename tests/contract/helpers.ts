// Shared by the contract tests: the build of spec/ made by global-setup.ts, and temporary workspaces.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, inject } from 'vitest';
import { readBundle } from '../../scripts/build/build.ts';
import { loadChecklist } from './checklist.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';

export const checklist = loadChecklist(path.join(ROOT, 'tests', 'fixtures', 'seed-checklist.yaml'));

/** The build of spec/ (throws the build's error when spec/ did not build). */
export function built(): { dir: string; files: string[]; openapi: JsonObject; asyncapi: JsonObject } {
  const result = inject('contractBuild');
  if ('error' in result) throw new Error(`spec/ does not build:\n${result.error}`);
  return {
    ...result,
    openapi: readBundle(result.dir, 'openapi') as JsonObject,
    asyncapi: readBundle(result.dir, 'asyncapi') as JsonObject,
  };
}

/** Copies redocly.yaml and spec/ to a temporary workspace, to break it without touching the real one. */
export function copyWorkspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-ws-'));
  fs.copyFileSync(path.join(ROOT, 'redocly.yaml'), path.join(dir, 'redocly.yaml'));
  fs.cpSync(path.join(ROOT, 'spec'), path.join(dir, 'spec'), {
    recursive: true,
    filter: (src) => !path.basename(src).startsWith('.proto-'),
  });
  return dir;
}

/** Edits a file of a workspace; fails loudly when the text to replace is not there. */
export function edit(workspace: string, file: string, change: (text: string) => string): void {
  const full = path.join(workspace, file);
  const before = fs.readFileSync(full, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`edit of ${file} changed nothing: the fixture no longer matches the spec`);
  fs.writeFileSync(full, after);
}

/** Fails with every problem on its own line (a plain toEqual([]) would truncate the list). */
export function expectNoProblems(problems: string[]): void {
  expect(problems, `${problems.length} problem(s):\n  - ${problems.join('\n  - ')}\n`).toEqual([]);
}
