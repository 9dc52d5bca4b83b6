// TypeScript types of the OpenAPI bundle, with openapi-typescript's library API.
// The CLI (`openapi-typescript` with `apis:` in redocly.yaml) requires `x-openapi-ts.output` on every
// API, and the AsyncAPI one has none, so the build calls the same functions the CLI calls, with the CLI's
// defaults, on the bundle it just wrote; the output file is `apis.openapi.x-openapi-ts.output`.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export const CLI_DEFAULTS = {
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

/**
 * Generates the .d.ts text of an OpenAPI bundle (the same text `openapi-typescript` writes).
 *
 * `openapiTS()` first lints and bundles its input again with its own copy of Redocly (the `minimal` rules
 * plus operation-operationId-unique), which takes about as long as the type generation itself. The input
 * here is a bundle the build has just made from a document `redocly lint` passed (recommended-strict,
 * which has both), so this runs the rest of `openapiTS()` on it: the same context, built from the same
 * options, and the same transform. tests/build checks the text against the committed generated/ files.
 */
export async function generateTypes(bundleFile: string): Promise<string> {
  // The CLI passes every boolean flag, unset flags as false (yargs-parser); do the same so the text is identical.
  // Loaded on use: a build whose types are cached (cache.ts) does not load openapi-typescript at all.
  const { astToString, COMMENT_HEADER, resolveRef, scanDiscriminators, transformSchema } = await import('openapi-typescript');
  const schema = JSON.parse(fs.readFileSync(bundleFile, 'utf8')) as Parameters<typeof transformSchema>[0];
  const options = { ...CLI_DEFAULTS, silent: true };
  // The context openapiTS() builds (openapi-typescript 7.13, dist/index.mjs), from the same options.
  const ctx = {
    ...options,
    discriminators: scanDiscriminators(schema, options),
    injectFooter: [],
    postTransform: undefined,
    inject: undefined,
    transform: undefined,
    transformProperty: undefined,
    redoc: undefined as never, // not read by the transforms
    resolve: ($ref: string) => resolveRef(schema, $ref, { silent: true }),
  } satisfies Parameters<typeof transformSchema>[1];
  return `${COMMENT_HEADER}${astToString(transformSchema(schema, ctx))}`;
}
