// TypeScript types of the OpenAPI bundle, with openapi-typescript's library API.
// The CLI (`openapi-typescript` with `apis:` in redocly.yaml) requires `x-openapi-ts.output` on every
// API, and the AsyncAPI one has none, so the build calls the same functions the CLI calls, with the CLI's
// defaults, on the bundle it just wrote; the output file is `apis.openapi.x-openapi-ts.output`.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';

const CLI_DEFAULTS = {
  additionalProperties: false,
  alphabetize: false,
  arrayLength: false,
  contentNever: false,
  propertiesRequiredByDefault: false,
  defaultNonNullable: false,
  emptyObjectsUnknown: false,
  enum: false,
  enumValues: false,
  conditionalEnums: false,
  dedupeEnums: false,
  excludeDeprecated: false,
  exportType: false,
  immutable: false,
  pathParamsAsTypes: false,
  rootTypes: false,
  rootTypesNoSchemaPrefix: false,
  rootTypesKeepCasing: false,
  makePathsEnum: false,
  generatePathParams: false,
  readWriteMarkers: false,
} as const;

/** Reads `apis.openapi.x-openapi-ts.output` from a workspace's redocly.yaml. */
export function typesOutput(workspace: string): string {
  const config = parse(fs.readFileSync(path.join(workspace, 'redocly.yaml'), 'utf8')) as {
    apis?: { openapi?: { 'x-openapi-ts'?: { output?: string } } };
  };
  const output = config.apis?.openapi?.['x-openapi-ts']?.output;
  if (!output) throw new Error('redocly.yaml: apis.openapi.x-openapi-ts.output is missing');
  return output;
}

/** Generates the .d.ts text of an OpenAPI bundle (the same text `openapi-typescript` writes). */
export async function generateTypes(bundleFile: string): Promise<string> {
  // The CLI passes every boolean flag, unset flags as false (yargs-parser); do the same so the text is identical.
  // Loaded on use: a build whose types are cached (cache.ts) does not load openapi-typescript at all.
  const { default: openapiTS, astToString, COMMENT_HEADER } = await import('openapi-typescript');
  const ast = await openapiTS(pathToFileURL(bundleFile), { ...CLI_DEFAULTS, silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}
