// Bounds on every schema (docs/structure.md, Conventions): every string has maxLength (or enum/const),
// every array maxItems, every integer a format and minimum/maximum, every money amount minimum, maximum and
// x-decimal-places. Finds the schemas of a bundle that miss one, by JSON Pointer.
import { escapeToken, isObject, type Json } from '../../scripts/lib/pointer.ts';

export interface Unbounded {
  strings: string[];
  arrays: string[];
  integers: string[];
  numbers: string[];
}

const typesOf = (node: { [key: string]: Json }): string[] =>
  Array.isArray(node['type']) ? node['type'].map(String) : typeof node['type'] === 'string' ? [node['type']] : [];

/** Every schema with a `type` in the document (examples excluded), with what it lacks. */
export function unboundedSchemas(doc: Json): Unbounded {
  const out: Unbounded = { strings: [], arrays: [], integers: [], numbers: [] };
  const has = (node: { [key: string]: Json }, ...keys: string[]) => keys.some((k) => k in node);
  const walk = (node: Json | undefined, at: string): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${at}/${i}`);
      return;
    }
    if (!isObject(node)) return;
    const types = typesOf(node);
    if (types.includes('string') && !has(node, 'maxLength', 'enum', 'const')) out.strings.push(at);
    if (types.includes('array') && !has(node, 'maxItems')) out.arrays.push(at);
    if (
      types.includes('integer') &&
      !(has(node, 'format') && has(node, 'minimum', 'exclusiveMinimum') && has(node, 'maximum', 'exclusiveMaximum'))
    ) {
      out.integers.push(at);
    }
    if (types.includes('number') && !at.endsWith('/exchange_rate')) {
      if (!(has(node, 'minimum', 'exclusiveMinimum') && has(node, 'maximum', 'exclusiveMaximum') && has(node, 'x-decimal-places')))
        out.numbers.push(at);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'examples' || key === 'example' || key === 'value') continue;
      walk(value, `${at}/${escapeToken(key)}`);
    }
  };
  walk(doc, '');
  return out;
}
