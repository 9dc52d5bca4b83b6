// Where things are. A "workspace" is a directory holding redocly.yaml and spec/ (the repository, or a
// temporary copy of it in tests); the build reads a workspace and writes into an output directory.
import path from 'node:path';

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

/** Where the committed build output lives, relative to a workspace. */
export const GENERATED_DIR = 'generated';

/** API names in redocly.yaml (`apis:`) and the bundles each one produces. */
export const APIS = ['openapi', 'asyncapi', 'sandbox'] as const;
export type ApiName = (typeof APIS)[number];

/** Every file `npm run build` writes into the output directory, in build order. */
export const OUTPUTS = [
  'openapi.json',
  'openapi.yaml',
  'asyncapi.json',
  'asyncapi.yaml',
  'openapi.d.ts',
  'openapi-values.js',
  'openapi-values.d.ts',
  'sandbox.json',
  'sandbox.yaml',
  'sandbox.d.ts',
  'sandbox-values.js',
  'sandbox-values.d.ts',
] as const;

/** The Redocly CLI entry point, run with the current Node (24 under npm scripts). */
export const REDOCLY_BIN = path.join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
