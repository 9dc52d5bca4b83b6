// `--only`: the operations to check, by operationId or by path (every operation of that path). The suite
// then runs Dredd on a copy of the bundle that keeps only those operations.
import { closest, UsageError } from '../lib/cli-parser.ts';
import { contractModel } from '../../src/contract/model.ts';
import { HTTP_METHODS, type JsonObject } from '../lib/pointer.ts';
import type { OpenApiBundle } from './validate-response.ts';

/** Splits repeated and comma-separated values: ['a,b', 'c'] → ['a', 'b', 'c']. */
export function listValues(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * The bundle with only the operations named in `only` (operationIds or path templates such as
 * `/cards/{code}`). Throws a UsageError naming each unknown value, with the nearest known ones.
 */
export function selectOperations(bundle: OpenApiBundle, only: readonly string[]): { bundle: OpenApiBundle; selected: string[] } {
  const model = contractModel(bundle);
  const operations = model.operations.map((o) => ({ path: o.path, method: o.method, id: o.operationId || undefined, item: o.item.node }));
  const known = [...new Set([...operations.flatMap((o) => (o.id ? [o.id] : [])), ...operations.map((o) => o.path)])];
  const unknown = only.filter((v) => !known.includes(v));
  if (unknown.length) {
    const hints = unknown.map((v) => {
      const near = closest(v, known);
      return `${v}${near.length ? ` (did you mean ${near.slice(0, 3).join(', ')}?)` : ''}`;
    });
    throw new UsageError(`--only: unknown operation or path ${hints.join(', ')}; give operationIds (listCards) or paths (/cards)`);
  }
  const chosen = operations.filter((o) => only.includes(o.path) || (o.id !== undefined && only.includes(o.id)));
  const kept: JsonObject = {};
  for (const o of chosen) {
    kept[o.path] ??= Object.fromEntries(Object.entries(o.item).filter(([k]) => !(HTTP_METHODS as readonly string[]).includes(k)));
    const copy = kept[o.path] as JsonObject;
    copy[o.method] = o.item[o.method]!;
  }
  return { bundle: { ...bundle, paths: kept }, selected: chosen.map((o) => `${o.method.toUpperCase()} ${o.path}`) };
}
