// `x-decimal-places: n` (docs/extensions.md): a money amount has at most n decimal places, so 10.001 is
// refused where 2 are allowed and 19.99 or 0.07 are accepted. One definition for every Ajv of the project:
// the sandbox's request validators and the contract checks and conformance suite (scripts/lib/schema.ts).
// The keyword generates its check as code, so that Ajv's standalone code (the sandbox's validators compiled
// by `npm run build:lib`, scripts/package/precompile.ts) holds it without a reference to this module.
import { _, str } from 'ajv/dist/compile/codegen/index.js';
import type { CodeKeywordDefinition } from 'ajv/dist/types/index.js';

/**
 * True when `value` has at most `places` decimal places. `toFixed(places)` rounds to that many places, and a
 * number that has no more reads back as itself (a binary test such as `value * 100 % 1` would refuse 0.07).
 */
export function hasDecimalPlaces(value: number, places: number): boolean {
  return Number.isFinite(value) && Number(value.toFixed(places)) === value;
}

/** The Ajv keyword `x-decimal-places`, with an error that names the limit: the test of hasDecimalPlaces, inlined. */
export const decimalPlacesKeyword: CodeKeywordDefinition = {
  keyword: 'x-decimal-places',
  type: 'number',
  schemaType: 'number',
  error: {
    message: ({ schema }) => str`must have at most ${schema} decimal places`,
    params: ({ schema }) => _`{places: ${schema}}`,
  },
  code(cxt) {
    const { data, schema } = cxt;
    cxt.fail(_`!(Number.isFinite(${data}) && Number(${data}.toFixed(${schema})) === ${data})`);
  },
};
