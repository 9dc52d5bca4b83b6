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

/** What the types step writes for one bundle: its types, and the value lists of its enums. */
export interface GeneratedTypes {
  /** The .d.ts text, the same text `openapi-typescript` writes. */
  types: string;
  /**
   * The enum value arrays `openapi-typescript --enum-values` adds (`export const errorReasonValues = [...]`), as
   * a JavaScript module and its declarations, so that the runtime reads a closed set from the contract instead
   * of a hand list. The declarations import the types of `types`.
   */
  values: { js: string; dts: string };
}

/**
 * Generates the .d.ts text of an OpenAPI bundle (the same text `openapi-typescript` writes), and the value
 * lists of its enums.
 *
 * `openapiTS()` first lints and bundles its input again with its own copy of Redocly (the `minimal` rules
 * plus operation-operationId-unique), which takes about as long as the type generation itself. The input
 * here is a bundle the build has just made from a document `redocly lint` passed (recommended-strict,
 * which has both), so this runs the rest of `openapiTS()` on it: the same context, built from the same
 * options, and the same transform. tests/build checks the text against the committed generated/ files.
 *
 * One transform gives both: with `enumValues`, openapi-typescript appends the value arrays (and their two
 * helper types) to the same nodes; without those nodes, the text is what it writes without the option.
 */
export async function generateTypesAndValues(bundleFile: string, typesModule: string): Promise<GeneratedTypes> {
  // The CLI passes every boolean flag, unset flags as false (yargs-parser); do the same so the text is identical.
  // Loaded on use: a build whose types are cached (cache.ts) does not load openapi-typescript at all.
  const { astToString, COMMENT_HEADER, resolveRef, scanDiscriminators, transformSchema } = await import('openapi-typescript');
  const { default: ts } = await import('typescript');
  const schema = JSON.parse(fs.readFileSync(bundleFile, 'utf8')) as Parameters<typeof transformSchema>[0];
  const options = { ...CLI_DEFAULTS, enumValues: true, silent: true };
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
  const nodes = transformSchema(schema, ctx);
  const helper = (n: (typeof nodes)[number]) =>
    ts.isTypeAliasDeclaration(n) && ['FlattenedDeepRequired', 'ReadonlyArray'].includes(n.name.text);
  const arrays = nodes.filter((n): n is import('typescript').VariableStatement => ts.isVariableStatement(n));
  const types = `${COMMENT_HEADER}${astToString(nodes.filter((n) => !helper(n) && !ts.isVariableStatement(n)))}`;

  const declarations = arrays.flatMap((statement) => statement.declarationList.declarations);
  const name = (d: (typeof declarations)[number]) => (d.name as import('typescript').Identifier).text;
  const js = declarations.map((d) => `export const ${name(d)} = ${astToString(d.initializer!).trim()};\n`).join('');
  const declared = declarations.map((d) => `export declare const ${name(d)}: ${astToString(d.type!).trim()};\n`).join('');
  const used = [...new Set([...declared.matchAll(/FlattenedDeepRequired<(\w+)>/g)].map((m) => m[1]!))].sort();
  const dts = [
    COMMENT_HEADER,
    used.length > 0 ? `import type { ${used.join(', ')} } from './${typesModule}';\n` : '',
    astToString(nodes.filter(helper)),
    declared,
  ].join('');
  return { types, values: { js: `${COMMENT_HEADER}${js}`, dts } };
}

/** The .d.ts text of an OpenAPI bundle (the same text `openapi-typescript` writes). */
export async function generateTypes(bundleFile: string): Promise<string> {
  return (await generateTypesAndValues(bundleFile, 'types.js')).types;
}
