// `x-decimal-places: n` (docs/extensions.md): a money amount has at most n decimal places, so 10.001 is
// refused where 2 are allowed and 19.99 or 0.07 are accepted. One definition for every Ajv of the project:
// the sandbox's request validators and the contract checks and conformance suite (scripts/lib/schema.ts).
import type { DataValidateFunction, FuncKeywordDefinition } from 'ajv/dist/types/index.js';

/**
 * True when `value` has at most `places` decimal places. `toFixed(places)` rounds to that many places, and a
 * number that has no more reads back as itself (a binary test such as `value * 100 % 1` would refuse 0.07).
 */
export function hasDecimalPlaces(value: number, places: number): boolean {
  return Number.isFinite(value) && Number(value.toFixed(places)) === value;
}

/** The Ajv keyword `x-decimal-places`, with an error that names the limit. */
export const decimalPlacesKeyword: FuncKeywordDefinition = {
  keyword: 'x-decimal-places',
  type: 'number',
  schemaType: 'number',
  errors: true,
  validate: function check(places: number, value: number): boolean {
    const ok = hasDecimalPlaces(value, places);
    (check as unknown as DataValidateFunction).errors = ok
      ? []
      : [{ keyword: 'x-decimal-places', params: { places }, message: `must have at most ${places} decimal places` }];
    return ok;
  },
};
