// Invalid requests generated from the contract: for an operation's body fields and parameters, values that
// break one rule of their schema (type, bounds, length, pattern, closed set, format, decimal places, required,
// unknown field), drawn with fast-check from the schema, and kept only when the contract's own schema (Ajv)
// refuses them; plus bodies that are not the JSON object the operation takes. A seed makes a run repeatable.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { decimalPlacesKeyword } from '../../../src/contract/decimal-places.ts';
import { contractModel } from '../../../src/contract/model.ts';
import { isObject, type Json, type JsonObject } from '../../lib/pointer.ts';
import { propertiesAt } from '../../lib/schema.ts';
import type { CheckContext } from './context.ts';
import { copyRequest, type RequestSpec } from './request.ts';

export interface Violation {
  /** What is wrong, for the report: `body /amount: 4.99 (minimum 5)`. */
  what: string;
  /** Why it is not sent to this server (a mock cannot be expected to read the contract's own `x-` keywords). */
  skip?: string;
  /** The request with the violation. */
  request: RequestSpec;
  /** The status the contract gives for it (422 VALIDATION_ERROR), or undefined for any 4xx. */
  expect?: { status: number; codes: string[] };
}

/** A rule a value can break, and values that may break it (each checked against the schema before use). */
interface Breaker {
  rule: string;
  values: fc.Arbitrary<Json | typeof REMOVE>;
  /** Keeps only the values that break this rule (a wrong type, not another rule of the right type). */
  keep?: (value: Json) => boolean;
  /** The contract's `x-` keyword the rule comes from, if any. */
  extension?: string;
}

const REMOVE = Symbol('remove');
const ID = 'https://conformance.checks/violations.json';

/** Ajv over the bundle: `body` as JSON is sent, `param` with the coercion of a string from a URL or a header. */
function validators(bundle: JsonObject) {
  const make = (coerceTypes: boolean) => {
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, logger: false, coerceTypes });
    addFormats.default(ajv);
    for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) ajv.addFormat(format, true);
    ajv.addKeyword(decimalPlacesKeyword);
    ajv.addSchema(bundle as object, ID);
    return ajv;
  };
  const body = make(false);
  const param = make(true);
  const cache = new Map<string, ValidateFunction>();
  const compile = (ajv: Ajv2020, key: string, schema: object) => {
    let fn = cache.get(key);
    if (!fn) {
      fn = ajv.compile(schema);
      cache.set(key, fn);
    }
    return fn;
  };
  const ref = (pointer: string) => ({
    $ref: `${ID}#${pointer
      .split('/')
      .map((s) => encodeURIComponent(s).replace(/%7E/g, '~'))
      .join('/')}`,
  });
  return {
    /** True when the schema at `pointer` refuses the body. */
    refusesBody: (pointer: string, value: unknown) => !compile(body, `b${pointer}`, ref(pointer))(value),
    /** True when the schema at `pointer` refuses the parameter's string, coerced as a server coerces it. */
    refusesParam: (pointer: string, value: string) =>
      !compile(param, `p${pointer}`, { type: 'object', properties: { v: ref(pointer) } })({ v: value }),
  };
}

const cached = new WeakMap<object, ReturnType<typeof validators>>();
/** The contract's own validators of request values (cached per bundle): what a generated value is checked with. */
export const validatorsOf = (bundle: JsonObject) => {
  let v = cached.get(bundle);
  if (!v) {
    v = validators(bundle);
    cached.set(bundle, v);
  }
  return v;
};

/** The JSON Schema type of a value (`integer` for a whole number). */
const jsonType = (value: Json): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : typeof value;

/** The values of a closed set: its `enum`, or the `enum`/`const` of every branch of its `oneOf`/`anyOf`. */
function closedSet(bundle: JsonObject, schema: JsonObject): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.filter((v): v is string => typeof v === 'string');
  const branches = [...(Array.isArray(schema.oneOf) ? schema.oneOf : []), ...(Array.isArray(schema.anyOf) ? schema.anyOf : [])];
  if (!branches.length) return undefined;
  const values: string[] = [];
  for (const branch of branches) {
    const b = contractModel(bundle).resolve(branch).node;
    if (!isObject(b)) return undefined;
    if (Array.isArray(b.enum)) values.push(...b.enum.filter((v): v is string => typeof v === 'string'));
    else if (typeof b.const === 'string') values.push(b.const);
    else return undefined;
  }
  return values;
}

const types = (schema: JsonObject): string[] =>
  Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];

/** Values of every JSON type (one of them breaks `type`). */
const anyJson: fc.Arbitrary<Json> = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 12 }),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.constant({ unexpected: true }),
);

/** The rules of a schema that a value can break, each with values that may break it; `sample` is a valid value. */
function breakers(bundle: JsonObject, schema: JsonObject, sample: Json | undefined, inUrl: boolean): Breaker[] {
  return [
    ...typeBreakers(schema, inUrl),
    ...setBreakers(bundle, schema),
    ...rangeBreakers(schema, sample),
    ...lengthBreakers(schema, inUrl),
    ...formatBreakers(schema, inUrl),
    ...itemBreakers(schema, sample),
  ];
}

function typeBreakers(schema: JsonObject, inUrl: boolean): Breaker[] {
  const out: Breaker[] = [];
  const t = types(schema);
  // In a URL or a header every value is a string: only what coercion cannot save breaks `type`.
  if (t.length && !inUrl)
    out.push({
      rule: `type ${t.join(' or ')}`,
      values: anyJson,
      keep: (v) => !t.includes(jsonType(v)) && !(t.includes('number') && jsonType(v) === 'integer'),
    });
  if (inUrl && (t.includes('integer') || t.includes('number')))
    out.push({
      rule: `type ${t.join(' or ')}`,
      values: fc.oneof(fc.constantFrom('abc', '1.5', '1e', '', 'null'), fc.string({ minLength: 1, maxLength: 6 })),
    });
  return out;
}

/** A closed set (`enum`, or a `oneOf` of constants) and `const`. */
function setBreakers(bundle: JsonObject, schema: JsonObject): Breaker[] {
  const out: Breaker[] = [];
  const closed = closedSet(bundle, schema);
  if (closed) {
    const known = closed;
    out.push({
      rule: `one of ${known.slice(0, 4).join(', ')}${known.length > 4 ? ', ...' : ''}`,
      values: fc.oneof(
        fc.constantFrom(...(known.length ? known : ['x'])).map((v) => (v.toUpperCase() === v ? v.toLowerCase() : v.toUpperCase())),
        fc.string({ minLength: 1, maxLength: 12 }),
      ),
    });
  }
  if (schema.const !== undefined)
    out.push({ rule: `const ${JSON.stringify(schema.const)}`, values: fc.string({ minLength: 1, maxLength: 8 }) });
  return out;
}

/** The bounds of a number: minimum, maximum, decimal places, an integer. */
function rangeBreakers(schema: JsonObject, sample: Json | undefined): Breaker[] {
  const out: Breaker[] = [];
  const t = types(schema);
  const integer = t.includes('integer');
  const step = integer ? 1 : 0.01;
  if (typeof schema.minimum === 'number') {
    const min = schema.minimum;
    out.push({
      rule: `minimum ${min}`,
      values: integer
        ? fc.integer({ min: min - 1000, max: min - 1 })
        : fc.integer({ min: 1, max: 100_000 }).map((n) => Number((min - n * step).toFixed(2))),
    });
  }
  if (typeof schema.exclusiveMinimum === 'number')
    out.push({ rule: `exclusiveMinimum ${schema.exclusiveMinimum}`, values: fc.constant(schema.exclusiveMinimum) });
  if (typeof schema.maximum === 'number') {
    const max = schema.maximum;
    out.push({
      rule: `maximum ${max}`,
      values: integer
        ? fc.integer({ min: 1, max: 1000 }).map((n) => max + n)
        : fc.integer({ min: 1, max: 100_000 }).map((n) => Number((max + n * step).toFixed(2))),
    });
  }
  if (typeof schema['x-decimal-places'] === 'number') {
    const places = schema['x-decimal-places'];
    const base = typeof sample === 'number' ? sample : typeof schema.minimum === 'number' ? schema.minimum : 10;
    out.push({
      rule: `at most ${places} decimal places`,
      extension: 'x-decimal-places',
      values: fc.integer({ min: 1, max: 9 }).map((d) => Number((Math.trunc(base) + d / 10 ** (places + 1)).toFixed(places + 1))),
    });
  }
  if (integer) out.push({ rule: 'an integer', values: fc.integer({ min: 1, max: 99 }).map((n) => n + 0.5) });
  return out;
}

function lengthBreakers(schema: JsonObject, inUrl: boolean): Breaker[] {
  const out: Breaker[] = [];
  if (typeof schema.maxLength === 'number') {
    const max = schema.maxLength;
    out.push({
      rule: `maxLength ${max}`,
      values: fc
        .string({ unit: 'grapheme-ascii', minLength: max + 1, maxLength: max + 8 })
        .map((s) => (inUrl ? s.replace(/[^A-Za-z0-9]/g, 'a') : s)),
    });
  }
  if (typeof schema.minLength === 'number' && schema.minLength > 0)
    out.push({ rule: `minLength ${schema.minLength}`, values: fc.string({ maxLength: schema.minLength - 1 }) });
  return out;
}

/** A pattern and the formats the contract uses. */
function formatBreakers(schema: JsonObject, inUrl: boolean): Breaker[] {
  const out: Breaker[] = [];
  if (typeof schema.pattern === 'string') {
    // Candidates only: the schema check drops those that match (a filter here could spin on a loose pattern).
    const chars = inUrl
      ? fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/)
      : fc.oneof(fc.string({ minLength: 1, maxLength: 24 }), fc.constantFrom(' ', '!', 'é', '\t'));
    out.push({ rule: `pattern ${schema.pattern}`, values: chars });
  }
  if (schema.format === 'uuid')
    out.push({
      rule: 'format uuid',
      values: fc.oneof(
        fc.stringMatching(/^[a-z0-9-]{1,24}$/),
        fc.uuid().map((u) => `${u.slice(0, -1)}z`),
      ),
    });
  if (schema.format === 'date-time')
    out.push({
      rule: 'format date-time',
      values: fc.constantFrom('2026-13-01T00:00:00Z', '2026-02-30T10:00:00Z', 'yesterday', '2026-03-01', '1772634006'),
    });
  if (schema.format === 'email') out.push({ rule: 'format email', values: fc.stringMatching(/^[a-z]{1,10}(\.[a-z]{1,5})?$/) });
  return out;
}

function itemBreakers(schema: JsonObject, sample: Json | undefined): Breaker[] {
  const out: Breaker[] = [];
  if (typeof schema.maxItems === 'number' && Array.isArray(sample) && sample.length) {
    const max = schema.maxItems;
    out.push({ rule: `maxItems ${max}`, values: fc.constant(Array.from({ length: max + 1 }, (_, i) => sample[i % sample.length]!)) });
  }
  if (typeof schema.minItems === 'number' && schema.minItems > 0)
    out.push({ rule: `minItems ${schema.minItems}`, values: fc.constant([]) });
  if (schema.uniqueItems === true && Array.isArray(sample) && sample.length)
    out.push({ rule: 'uniqueItems', values: fc.constant([sample[0]!, sample[0]!]) });
  return out;
}

/** The schema at a pointer, with `$ref`s followed. */
const schemaAt = (bundle: JsonObject, pointer: string): JsonObject | undefined => {
  const node = contractModel(bundle).resolvePointer(pointer).node;
  return isObject(node) ? node : undefined;
};

/** Sets (or, with REMOVE, deletes) the value at a JSON path of a body copy. */
function withValue(body: Json, path: string[], value: Json | typeof REMOVE): Json {
  const copy = structuredClone(body);
  let node: Json = copy;
  for (const key of path.slice(0, -1)) node = (node as JsonObject)[key]!;
  const last = path.at(-1)!;
  if (value === REMOVE) delete (node as JsonObject)[last];
  else (node as JsonObject)[last] = value;
  return copy;
}

interface Target {
  where: string;
  rule: string;
  /** The contract's `x-` keyword the rule comes from, if any. */
  extension?: string;
  /** Draws a value and applies it; undefined when no value drawn breaks the schema. */
  draw(seed: number): RequestSpec | undefined;
  expect?: Violation['expect'];
}

const VALIDATION = { status: 422, codes: ['VALIDATION_ERROR'] };

/** How many values a rule's draw tries before it gives up. */
const DRAWS = 30;

/** Every rule that one field, parameter or the body as a whole of the request can break. */
function targets(ctx: CheckContext, valid: RequestSpec): Target[] {
  return [...parameterTargets(ctx, valid), ...bodyTargets(ctx, valid)];
}

/** The parameters' rules: path, query and header, each as the string a URL or a header carries. */
function parameterTargets(ctx: CheckContext, valid: RequestSpec): Target[] {
  const bundle = ctx.validator.bundle as JsonObject;
  const { refusesParam } = validatorsOf(bundle);
  const { method, template } = valid;
  const out: Target[] = [];
  const draws = DRAWS;
  for (const param of contractModel(bundle).byPath(method, template)?.parameters ?? []) {
    const schemaPointer = `${param.pointer}/schema`;
    const schema = isObject(param.node.schema) ? schemaAt(bundle, schemaPointer) : undefined;
    if (!schema || !['path', 'query', 'header'].includes(param.in)) continue;
    const { name } = param;
    const current = param.in === 'path' ? valid.params.get(name) : undefined;
    for (const breaker of breakers(bundle, schema, current, true)) {
      out.push({
        where: `${param.in} ${name}`,
        rule: breaker.rule,
        ...(breaker.extension ? { extension: breaker.extension } : {}),
        expect: VALIDATION,
        draw(seed) {
          for (const value of fc.sample(breaker.values, { seed, numRuns: draws })) {
            if (value === REMOVE || value === null || (breaker.keep && !breaker.keep(value))) continue;
            const text = typeof value === 'string' ? value : JSON.stringify(value);
            // An empty path segment is another path, and an empty query value or header may be taken for none;
            // a header cannot carry every character.
            if (text === '' || (param.in === 'path' && text.includes('/'))) continue;
            if (param.in === 'header' && !/^[\x20-\x7e]*$/.test(text)) continue;
            if (!refusesParam(schemaPointer, text)) continue;
            const req = copyRequest(valid);
            if (param.in === 'path') req.params.set(name, text);
            else if (param.in === 'query') req.query.set(name, text);
            else req.headers[name] = text;
            return req;
          }
          return undefined;
        },
      });
    }
  }

  return out;
}

/** The body's rules: each field present in the example (and its object fields), then the body as a whole. */
function bodyTargets(ctx: CheckContext, valid: RequestSpec): Target[] {
  const bundle = ctx.validator.bundle as JsonObject;
  const { refusesBody } = validatorsOf(bundle);
  const { method, template } = valid;
  const out: Target[] = [];
  const draws = DRAWS;
  // The contract's request bodies are all `application/json`.
  const media = contractModel(bundle).byPath(method, template)?.requestBody?.json;
  if (media === undefined || valid.body === undefined) return out;
  const bodyPointer = `${media.pointer}/schema`;
  const body = JSON.parse(valid.body) as Json;
  const withBody = (value: Json) => {
    const req = copyRequest(valid);
    req.body = JSON.stringify(value);
    return req;
  };
  const fields = (schemaPointer: string, value: Json, path: string[]) => {
    if (!isObject(value)) return;
    const props = propertiesAt(bundle, schemaPointer);
    for (const [field, current] of Object.entries(value)) {
      const at = [...path, field];
      const where = `body /${at.join('/')}`;
      const pointer = props.get(field)?.[0];
      const schema = pointer ? schemaAt(bundle, pointer) : undefined;
      const rules: Breaker[] = [
        { rule: 'required', values: fc.constant(REMOVE) },
        ...(schema ? breakers(bundle, schema, current, false) : []),
      ];
      for (const breaker of rules) {
        out.push({
          where,
          rule: breaker.rule,
          ...(breaker.extension ? { extension: breaker.extension } : {}),
          expect: VALIDATION,
          draw(seed) {
            for (const v of fc.sample(breaker.values, { seed, numRuns: breaker.rule === 'required' ? 1 : draws })) {
              if (v !== REMOVE && breaker.keep && !breaker.keep(v)) continue;
              const mutated = withValue(body, at, v);
              if (refusesBody(bodyPointer, mutated)) return withBody(mutated);
            }
            return undefined;
          },
        });
      }
      if (pointer && isObject(current)) fields(contractModel(bundle).resolvePointer(pointer).pointer, current, at);
    }
    out.push({
      where: `body${path.length ? ` /${path.join('/')}` : ''}`,
      rule: 'no unknown field (sent unexpected_field)',
      expect: VALIDATION,
      draw: () => {
        const mutated = withValue(body, [...path, 'unexpected_field'], 'x');
        return refusesBody(bodyPointer, mutated) ? withBody(mutated) : undefined;
      },
    });
  };
  fields(bodyPointer, body, []);
  // The body as a whole: not the JSON object the operation takes.
  for (const [rule, raw] of [
    ['a JSON object', '[]'],
    ['a JSON object', '"text"'],
    ['JSON', '{"amount": '],
  ] as const) {
    out.push({
      where: 'body',
      rule: `${rule} (sent ${raw})`,
      expect: rule === 'JSON' ? undefined : VALIDATION,
      draw: () => ({ ...copyRequest(valid), body: raw }),
    });
  }
  out.push({
    where: 'header Content-Type',
    rule: 'application/json (sent text/plain)',
    draw: () => {
      const req = copyRequest(valid);
      req.headers['Content-Type'] = 'text/plain';
      return req;
    },
  });
  return out;
}

/**
 * Up to `ctx.perOperation` invalid requests for an operation, each breaking one rule of one field or parameter
 * (the rules chosen with fast-check from all those the contract gives, with the run's seed).
 */
export function violations(ctx: CheckContext, valid: RequestSpec): Violation[] {
  const all = targets(ctx, valid);
  const seed = ctx.seed + [...`${valid.method} ${valid.template}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 0);
  const count = Math.min(ctx.perOperation, all.length);
  const [chosen] = fc.sample(fc.shuffledSubarray(all, { minLength: count, maxLength: count }), { seed, numRuns: 1 });
  const out: Violation[] = [];
  for (const [i, target] of (chosen ?? []).entries()) {
    const request = target.draw(seed + i);
    if (!request) continue;
    const value = describeChange(valid, request, target.where);
    const skip =
      ctx.config.mode === 'mock' && target.extension
        ? `a mock reads JSON Schema, not the contract's own ${target.extension} (docs/extensions.md)`
        : undefined;
    out.push({
      what: `${target.where}${value}: breaks ${target.rule}`,
      request,
      ...(target.expect ? { expect: target.expect } : {}),
      ...(skip ? { skip } : {}),
    });
  }
  return out;
}

/** The value sent for what changed, shortened: ` = 4.999`, ` removed`. */
function describeChange(valid: RequestSpec, changed: RequestSpec, where: string): string {
  const short = (v: unknown) => {
    const text = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? 'undefined');
    return text.length > 40 ? `${text.slice(0, 37)}...` : text;
  };
  const [kind, name] = where.split(' ');
  if (kind === 'path') return ` = ${short(changed.params.get(name!))}`;
  if (kind === 'query') return ` = ${short(changed.query.get(name!))}`;
  if (kind === 'header') return ` = ${short(changed.headers[name!])}`;
  if (kind === 'body' && name) {
    let node: unknown = JSON.parse(changed.body ?? 'null');
    for (const key of name.slice(1).split('/')) node = isObject(node) ? node[key] : undefined;
    if (node === undefined && valid.body !== changed.body) return ' removed';
    return ` = ${short(node)}`;
  }
  return '';
}
