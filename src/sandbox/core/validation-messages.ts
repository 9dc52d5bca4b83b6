// The messages of a refused request: Ajv's errors in, the fields of a 422 VALIDATION_ERROR out, each saying
// what to change. Three things make Ajv's raw list send a partner the wrong way, and are handled here:
// - a body with alternatives (`oneOf`: a virtual or a physical card, a SEPA or an ACH beneficiary) gets every
//   alternative's problems; only the alternative the request chose (by its discriminating field, a `const`
//   such as `category` or `rail`, or by its type) is reported, and a discriminator that matches none gets one
//   "must be one of" line;
// - an unknown enum value gets the allowed values, whole (never cut mid-word), and "did you mean";
// - a pattern says its rule in words (PATTERN_WORDS), not the regular expression.
import { closest, editDistance } from '../../cli-parser.js';
import { get } from '../../contract/json.js';
import { LOOPBACK_HTTP_URL } from './contract.js';
import type { FieldError } from './errors.js';

/** An Ajv error, as the validators of ./ajv.ts give them (allErrors, not verbose). */
export interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * The rule of each pattern of the contract's requests (spec/openapi.yaml as the sandbox serves it, and
 * spec/sandbox.yaml), in words, keyed by the pattern itself: one entry per pattern, whatever the number of
 * fields that use it. tests/sandbox/validation-messages.test.ts fails on a request pattern missing here.
 */
export const PATTERN_WORDS: Record<string, string> = {
  '^https://': 'must be an https:// url',
  [LOOPBACK_HTTP_URL]: 'must be an https:// url (the sandbox also accepts http:// on 127.0.0.1, localhost or [::1])',
  '^[A-Z]{2}$': 'must be a country code: two capital letters (ISO 3166-1 alpha-2, such as FR)',
  '^[A-Z]{3}$': 'must be a currency code: three capital letters (ISO 4217, such as EUR)',
  '^[A-Za-z0-9_.:-]{1,255}$': 'must be 1 to 255 letters, digits, "_", ".", ":" or "-"',
  '^evt_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$': 'must be an event id: evt_ and a lowercase UUID',
  "^[A-Za-z][A-Za-z .'-]{0,25}$":
    'must be 1 to 26 characters: Latin letters without accents, spaces, ".", "\'" or "-", starting with a letter',
  '^\\+[1-9][0-9]{1,14}$': 'must be a phone number in E.164 form: "+", the country code and the number, digits only (such as +33612345678)',
  '^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$': 'must be a BCP 47 language tag, such as fr, fr-FR or zh-Hant-TW',
  '^[A-Za-z0-9+/]+={0,2}$': 'must be base64: the standard alphabet, with padding, without line breaks',
  '^[A-Za-z0-9_]{1,64}$': 'must be 1 to 64 letters, digits or "_"',
  '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$':
    'must be an IBAN without spaces, in capitals: the country code, two check digits, then 11 to 30 letters or digits',
  '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$': 'must be a BIC: 8 or 11 capital letters or digits',
  '^[0-9]{4,17}$': 'must be 4 to 17 digits',
  '^[0-9]{9}$': 'must be 9 digits',
  '^[0-9]{6}$': 'must be 6 digits',
  '^[A-Za-z][A-Za-z0-9]*$': 'must be letters and digits, starting with a letter (an operationId such as createCard)',
  '^flt_[0-9a-f]{24}$': 'must be a fault id: flt_ and 24 lowercase hex digits',
  '^snap_[0-9a-f]{24}$': 'must be a snapshot id: snap_ and 24 lowercase hex digits',
  '^[a-z][a-z0-9_]{0,63}$': 'must be a local name: 1 to 64 lowercase letters, digits or "_", starting with a letter',
};

/** The contract's bounds on `details.fields`: at most 100 entries, a field of 255 and a message of 1000 characters. */
const MAX_FIELDS = 100;
const FIELD_LENGTH = 255;
const MESSAGE_LENGTH = 1000;
/** A field's part of the one-line message: past this, the short form of its message is used. */
const HEADLINE_PART = 200;

const COMBINATORS = new Set(['oneOf', 'anyOf']);

/** The branch index of `error` under the combinator at `schemaPath`, or undefined when it is not under it. */
function branchOf(error: AjvError, schemaPath: string): number | undefined {
  if (!error.schemaPath.startsWith(`${schemaPath}/`)) return undefined;
  const index = Number(error.schemaPath.slice(schemaPath.length + 1).split('/')[0]);
  return Number.isInteger(index) ? index : undefined;
}

/** An error on the value at `instancePath` itself that says it is not one of a set: `enum` or `const`. */
const isValueSet = (e: AjvError, instancePath: string) =>
  e.instancePath === instancePath && (e.keyword === 'enum' || e.keyword === 'const');

/**
 * Keeps the errors of the alternative the request chose, for each failed `oneOf`/`anyOf` (outermost first).
 * A branch is not the chosen one when its discriminating property (a direct property with a `const`) differs
 * from the request's, or when its own `type` is not the value's.
 */
function chooseAlternatives(errors: AjvError[]): AjvError[] {
  let kept = errors;
  for (;;) {
    const combinator = kept.filter((e) => COMBINATORS.has(e.keyword)).sort((a, b) => a.schemaPath.length - b.schemaPath.length)[0];
    if (!combinator) return kept;
    const at = combinator.schemaPath;
    const where = combinator.instancePath;
    const branches = new Map<number, AjvError[]>();
    for (const e of kept) {
      const i = branchOf(e, at);
      if (i !== undefined) branches.set(i, [...(branches.get(i) ?? []), e]);
    }
    const outside = kept.filter((e) => e !== combinator && branchOf(e, at) === undefined);
    const discriminated = (i: number) =>
      branches
        .get(i)!
        .some(
          (e) =>
            e.keyword === 'const' &&
            e.schemaPath === `${at}/${i}/properties/${e.instancePath.slice(where.length + 1)}/const` &&
            e.instancePath.startsWith(`${where}/`),
        );
    const wrongType = (i: number) =>
      branches.get(i)!.some((e) => e.keyword === 'type' && e.instancePath === where && e.schemaPath === `${at}/${i}/type`);
    const candidates = [...branches.keys()].filter((i) => !discriminated(i) && !wrongType(i));

    let chosen: AjvError[];
    if (branches.size === 0) {
      chosen = [{ ...combinator, keyword: 'alternatives', params: {} }]; // more than one alternative matched
    } else if (candidates.length === 1) {
      chosen = branches.get(candidates[0]!)!;
    } else {
      const pool = candidates.length > 0 ? candidates : [...branches.keys()];
      const all = pool.flatMap((i) => branches.get(i)!);
      const discriminators =
        candidates.length === 0 ? all.filter((e) => e.keyword === 'const' && e.instancePath.startsWith(`${where}/`)) : [];
      if (all.every((e) => isValueSet(e, where))) {
        chosen = [mergedValueSet(where, all)]; // scalar alternatives: an enum and a `*`, say
      } else if (discriminators.length > 0 && discriminators.every((e) => e.instancePath === discriminators[0]!.instancePath)) {
        chosen = [mergedValueSet(discriminators[0]!.instancePath, discriminators)]; // no alternative has this `category`
      } else if (candidates.length === 0 && pool.every(wrongType)) {
        const types = [...new Set(all.filter((e) => e.keyword === 'type' && e.instancePath === where).map((e) => String(e.params.type)))];
        chosen = [{ ...combinator, keyword: 'type', params: { type: types.join(',') } }];
      } else {
        chosen = pool.map((i) => branches.get(i)!).sort((a, b) => a.length - b.length)[0]!; // the closest alternative
      }
    }
    kept = [...outside, ...chosen.filter((e) => e !== combinator)];
  }
}

/** One `enum` error at `instancePath` listing every value of `errors` (enum and const), in their order. */
function mergedValueSet(instancePath: string, errors: AjvError[]): AjvError {
  const values = errors.flatMap((e) => (e.keyword === 'enum' ? (e.params.allowedValues as unknown[]) : [e.params.allowedValue]));
  return { instancePath, schemaPath: '', keyword: 'enum', params: { allowedValues: [...new Set(values)] } };
}

/** `/amount` -> `amount`, `/events/0` -> `events.0`; the missing or extra property for those keywords. */
function fieldOf(error: AjvError, context: string): string {
  const base = error.instancePath.split('/').slice(1).join('.');
  const extra =
    error.keyword === 'required'
      ? error.params.missingProperty
      : error.keyword === 'additionalProperties'
        ? error.params.additionalProperty
        : undefined;
  const name = [base, extra].filter((s) => s !== undefined && s !== '').join('.');
  return name !== '' ? name : context;
}

/** The allowed values nearest to a mistyped one, nearest first (at most three). */
function suggestions(given: unknown, allowed: unknown[]): string[] {
  if (typeof given !== 'string') return [];
  const names = allowed.filter((v): v is string => typeof v === 'string');
  return closest(given, names)
    .sort((a, b) => editDistance(a, given) - editDistance(b, given))
    .slice(0, 3);
}

/** "must be one of ..." within `budget` characters: the whole list when it fits, else the count. */
function enumMessage(allowed: unknown[], given: unknown, budget: number): string {
  const near = suggestions(given, allowed);
  const hint = near.length ? `; did you mean ${near.map((v) => JSON.stringify(v)).join(' or ')}?` : '';
  const whole = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}${hint} (enum)`;
  if (whole.length <= budget) return whole;
  const what = given === undefined ? 'is' : `${JSON.stringify(given)} is`;
  return `${what} not one of its ${allowed.length} allowed values${hint} (enum)`;
}

/** What to change, for one error, within `budget` characters. */
function messageOf(error: AjvError, given: unknown, budget: number): string {
  switch (error.keyword) {
    case 'required':
      return 'is required (required)';
    case 'additionalProperties':
      return 'is not a field of this request (additionalProperties)';
    case 'x-decimal-places':
      return 'has too many decimal places (x-decimal-places)';
    case 'enum':
      return enumMessage(error.params.allowedValues as unknown[], given, budget);
    case 'const':
      return `must be ${JSON.stringify(error.params.allowedValue)} (const)`;
    case 'type':
      return `must be ${String(error.params.type).split(',').join(' or ')} (type)`;
    case 'pattern': {
      const words = PATTERN_WORDS[String(error.params.pattern)];
      return words ? `${words} (pattern)` : `${error.message ?? 'does not have the expected form'} (pattern)`;
    }
    case 'alternatives':
      return 'matches more than one of its alternatives: remove the fields of the one you do not mean (oneOf)';
    default:
      return `${error.message ?? 'is invalid'} (${error.keyword})`;
  }
}

/**
 * The fields of a VALIDATION_ERROR for Ajv's `errors`, and its one-line message: the first three fields, then
 * how many more `details.fields` lists. `context` names the whole value (`body`, `querystring`...); `data` is
 * the value validated (the request's body, query or params), for the values a message quotes.
 */
export function validationProblem(errors: AjvError[], context: string, data: unknown): { message: string; fields: FieldError[] } {
  const fields: FieldError[] = [];
  const headline: string[] = [];
  const seen = new Set<string>();
  const chosen = chooseAlternatives(errors);
  // "must match a schema in allOf", "must match then schema": noise beside the errors that say what.
  const useful = chosen.length > 1 ? chosen.filter((e) => !['allOf', 'if', 'not'].includes(e.keyword)) : chosen;
  for (const error of useful.length > 0 ? useful : chosen) {
    const field = fieldOf(error, context).slice(0, FIELD_LENGTH);
    const given = get(data, error.instancePath);
    const message = messageOf(error, given, MESSAGE_LENGTH);
    const key = `${field} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    fields.push({ field, message });
    headline.push(`${field} ${messageOf(error, given, HEADLINE_PART - field.length - 1)}`);
  }
  const shown = headline.slice(0, 3);
  const more = fields.length > shown.length ? ` (and ${fields.length - shown.length} more in details.fields)` : '';
  return { message: `The request is invalid: ${shown.join('; ')}${more}.`, fields: fields.slice(0, MAX_FIELDS) };
}
