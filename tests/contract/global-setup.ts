// Builds spec/ once (bundles and types, no lint) into a temporary directory shared by the contract
// tests. A failing build does not abort the run: each contract test reports the build error instead.
import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { buildToTemp } from '../../scripts/build/build.ts';
import { ROOT } from '../../scripts/lib/paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    contractBuild: { dir: string; files: string[] } | { error: string };
  }
}

export default async function setup(project: TestProject) {
  let dir: string | undefined;
  try {
    // CONTRACT_WORKSPACE: build another workspace (a directory with redocly.yaml and spec/) instead.
    const built = await buildToTemp(process.env['CONTRACT_WORKSPACE'] ?? ROOT);
    dir = built.dir;
    project.provide('contractBuild', built);
  } catch (error) {
    project.provide('contractBuild', { error: (error as Error).message });
  }
  return () => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
}
