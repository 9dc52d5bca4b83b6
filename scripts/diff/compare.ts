// Compare two normalised models and list what changed, as facts (a rule id and a direction).
// Whether a change breaks consumers is decided in classify.ts, not here.
import { createHash } from 'node:crypto';
import type { EventDef, Model, Operation, Parameter, Schema } from './normalise.ts';

/** request: what clients send (and webhook receivers answer); response: what clients/receivers get. */
export type Direction = 'request' | 'response';

export interface RawChange {
  rule: string;
  direction?: Direction;
  /** "POST /cards", "event card.frozen", "servers", "security" */
  location: string;
  /** "request body (application/json)", "response 200 (application/json)", "parameter query:limit", "payload" */
  where?: string;
  /** Schema path inside `where`, e.g. "data.status" or "items[].code". */
  path?: string;
  message: string;
  before?: unknown;
  after?: unknown;
  /** For a property removed or added: a signature of its schema without the docs, to pair a likely rename. */
  shape?: string;
}

const json = (v: unknown) => JSON.stringify(v);
const same = (a: unknown, b: unknown) => json(a) === json(b);
const code = (v: unknown) => `\`${typeof v === 'string' ? v : json(v)}\``;
const typesOf = (s: Schema): string[] | null => (s.type === undefined ? null : [s.type].flat());
const covers = (set: string[], t: string) => set.includes(t) || (t === 'integer' && set.includes('number'));

// `x-decimal-places` (docs/extensions.md) reads like a maximum: fewer places accept fewer amounts.
const MAX = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'x-decimal-places'];
const MIN = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'multipleOf'];
const EXACT = ['pattern', 'format', 'contentEncoding', 'contentMediaType', 'uniqueItems'];
const DOCS = ['description', 'title', 'examples', 'example', 'x-provisional', 'x-provisional-note'];

/** A short signature of a schema's shape (docs keywords left out, cycles cut), equal for equal shapes. */
export function shapeOf(schema: Schema): string {
  const seen = new WeakSet<object>();
  const text = JSON.stringify(schema, (key, value) => {
    if (DOCS.includes(key) || key === 'deprecated') return undefined;
    if (value && typeof value === 'object') {
      if (seen.has(value)) return '[cycle]';
      seen.add(value);
    }
    return value;
  });
  return createHash('sha256')
    .update(text ?? '')
    .digest('hex')
    .slice(0, 12);
}

type Emit = (c: Omit<RawChange, 'location' | 'where' | 'direction'>) => void;

/** The name of a oneOf/anyOf alternative: its title, or the const of `type`/`error.code` that tells it apart. */
function variantName(s: Schema): string | undefined {
  return s.title ?? s.properties?.type?.const ?? s.properties?.error?.properties?.code?.const;
}

interface VariantPairs {
  /** [index in a, index in b, label] */
  pairs: [number, number, string][];
  removed: [number, string][];
  added: [number, string][];
}

/**
 * Pairs the alternatives of two oneOf/anyOf lists: by name; then those left by schema, so that a reorder
 * (`[ShippingAddress, null]` to `[null, ShippingAddress]`) or a title given to an alternative changes nothing;
 * then the unnamed ones left by their order, so that an edited alternative is compared with the one it
 * replaces. A pair is labelled by its name in `b`, else in `a`, else by its position in `b` (`#2`).
 */
export function pairVariants(va: Schema[], vb: Schema[]): VariantPairs {
  const out: VariantPairs = { pairs: [], removed: [], added: [] };
  const na = va.map(variantName),
    nb = vb.map(variantName);
  const label = (i: number | undefined, j: number | undefined) =>
    (j !== undefined ? nb[j] : undefined) ?? (i !== undefined ? na[i] : undefined) ?? `#${(j ?? i ?? 0) + 1}`;
  const leftA = va.map((_, i) => i).filter((i) => na[i] === undefined || !nb.includes(na[i]));
  const leftB = vb.map((_, j) => j).filter((j) => nb[j] === undefined || !na.includes(nb[j]));
  na.forEach((name, i) => {
    if (name !== undefined && nb.includes(name)) out.pairs.push([i, nb.indexOf(name), name]);
  });
  const pair = (i: number, j: number) => {
    out.pairs.push([i, j, label(i, j)]);
    leftA.splice(leftA.indexOf(i), 1);
    leftB.splice(leftB.indexOf(j), 1);
  };
  const shapes = { a: va.map(shapeOf), b: vb.map(shapeOf) };
  for (const i of [...leftA]) {
    const j = leftB.find((k) => shapes.b[k] === shapes.a[i]);
    if (j !== undefined) pair(i, j);
  }
  const unnamedB = leftB.filter((j) => nb[j] === undefined);
  for (const i of leftA.filter((i) => na[i] === undefined)) {
    const j = unnamedB.shift();
    if (j !== undefined) pair(i, j);
  }
  for (const i of leftA) out.removed.push([i, label(i, undefined)]);
  for (const j of leftB) out.added.push([j, label(undefined, j)]);
  return out;
}

/** The refusal reason of an error (`error.details.reason`), at any depth of a response. */
const ERROR_REASON = /(?:^|\.)error\.details\.reason$/;

/**
 * Walks two normalised schemas and emits every difference, with `path` naming the field.
 * `ancestors` stops the walk on a cycle; a schema shared by two fields is still compared at both.
 */
export function compareSchema(a: Schema, b: Schema, emit: Emit, path = '', ancestors = new Set<Schema>()): void {
  if (a === b || ancestors.has(a)) return;
  ancestors.add(a);
  try {
    compareNode(a, b, emit, path, ancestors);
  } finally {
    ancestors.delete(a);
  }
}

/** What the walk knows at one node: the two schemas, where they are, and the ancestors on the way there. */
interface NodeVisit {
  a: Schema;
  b: Schema;
  emit: Emit;
  path: string;
  /** `path`, or `(root)` in a message. */
  at: string;
  seen: Set<Schema>;
}

/** One schema node: each group of keywords compared in turn, then the subschemas. */
function compareNode(a: Schema, b: Schema, emit: Emit, path: string, seen: Set<Schema>): void {
  const visit: NodeVisit = { a, b, emit, path, at: path || '(root)', seen };
  for (const step of NODE_STEPS) step(visit);
}

function compareTypes({ a, b, emit, path, at }: NodeVisit): void {
  const ta = typesOf(a),
    tb = typesOf(b);
  if (same(ta, tb)) return;
  if (ta && tb) {
    const added = tb.filter((t) => !covers(ta, t));
    const removed = ta.filter((t) => !covers(tb, t));
    if (added.length)
      emit({ rule: 'type-widened', path, message: `${at}: type now also allows ${added.map(code).join(', ')}`, before: ta, after: tb });
    if (removed.length)
      emit({
        rule: 'type-narrowed',
        path,
        message: `${at}: type no longer allows ${removed.map(code).join(', ')}`,
        before: ta,
        after: tb,
      });
  } else if (tb) emit({ rule: 'type-narrowed', path, message: `${at}: type restricted to ${tb.map(code).join(', ')}`, after: tb });
  else emit({ rule: 'type-widened', path, message: `${at}: type restriction ${ta!.map(code).join(', ')} removed`, before: ta });
}

function compareConst({ a, b, emit, path, at }: NodeVisit): void {
  if (same(a.const, b.const)) return;
  if (a.const !== undefined && b.const !== undefined)
    emit({
      rule: 'const-changed',
      path,
      message: `${at}: constant changed from ${code(a.const)} to ${code(b.const)}`,
      before: a.const,
      after: b.const,
    });
  else if (b.const !== undefined) emit({ rule: 'const-added', path, message: `${at}: now fixed to ${code(b.const)}`, after: b.const });
  else emit({ rule: 'const-removed', path, message: `${at}: no longer fixed to ${code(a.const)}`, before: a.const });
}

function compareEnum({ a, b, emit, path, at }: NodeVisit): void {
  if (same(a.enum, b.enum)) return;
  if (!a.enum || !b.enum) {
    if (b.enum)
      emit({ rule: 'enum-added', path, message: `${at}: restricted to the values ${b.enum.map(code).join(', ')}`, after: b.enum });
    else emit({ rule: 'enum-removed', path, message: `${at}: no longer restricted to ${a.enum.map(code).join(', ')}`, before: a.enum });
    return;
  }
  const added = b.enum.filter((v: unknown) => !a.enum.some((w: unknown) => same(v, w)));
  const removed = a.enum.filter((v: unknown) => !b.enum.some((w: unknown) => same(v, w)));
  // `error.details.reason` is classified like `error.code` (docs/contract-diff.md, Errors).
  const reason = ERROR_REASON.test(path);
  const [addedRule, removedRule] = reason ? ['error-reason-added', 'error-reason-removed'] : ['enum-value-added', 'enum-value-removed'];
  const noun = reason ? 'error reason' : 'enum value';
  for (const v of added) emit({ rule: addedRule, path, message: `${at}: ${noun} ${code(v)} added`, after: v });
  for (const v of removed) emit({ rule: removedRule, path, message: `${at}: ${noun} ${code(v)} removed`, before: v });
}

function compareConstraints({ a, b, emit, path, at }: NodeVisit): void {
  for (const k of [...MAX, ...MIN]) {
    if (a[k] === b[k]) continue;
    const tighter = a[k] === undefined || (b[k] !== undefined && (MAX.includes(k) ? b[k] < a[k] : b[k] > a[k]));
    const rule =
      k === 'multipleOf' && a[k] !== undefined && b[k] !== undefined
        ? 'constraint-changed'
        : tighter
          ? 'constraint-tightened'
          : 'constraint-loosened';
    emit({ rule, path, message: `${at}: ${k} ${a[k] ?? '(none)'} → ${b[k] ?? '(none)'}`, before: a[k], after: b[k] });
  }
  for (const k of EXACT) {
    if (same(a[k], b[k])) continue;
    const rule = a[k] === undefined ? 'constraint-tightened' : b[k] === undefined ? 'constraint-loosened' : 'constraint-changed';
    emit({
      rule,
      path,
      message: `${at}: ${k} ${a[k] === undefined ? '(none)' : code(a[k])} → ${b[k] === undefined ? '(none)' : code(b[k])}`,
      before: a[k],
      after: b[k],
    });
  }
}

function compareAnnotations({ a, b, emit, path, at }: NodeVisit): void {
  if (!same(a.deprecated, b.deprecated) && b.deprecated) emit({ rule: 'deprecated', path, message: `${at}: deprecated` });
  const docs = DOCS.filter((k) => !same(a[k], b[k]));
  if (docs.length) emit({ rule: 'docs-changed', path, message: `${at}: ${docs.join(', ')} changed` });
}

function compareProperties({ a, b, emit, path, seen }: NodeVisit): void {
  const pa: Schema = a.properties ?? {},
    pb: Schema = b.properties ?? {};
  const ra: string[] = a.required ?? [],
    rb: string[] = b.required ?? [];
  const sub = (p: string) => (path ? `${path}.${p}` : p);
  for (const p of Object.keys(pa)) {
    if (!(p in pb)) emit({ rule: 'property-removed', path: sub(p), message: `${sub(p)}: property removed`, shape: shapeOf(pa[p]) });
  }
  for (const p of Object.keys(pb)) {
    if (!(p in pa)) {
      emit({
        rule: rb.includes(p) ? 'property-added-required' : 'property-added-optional',
        path: sub(p),
        message: `${sub(p)}: ${rb.includes(p) ? 'required' : 'optional'} property added`,
        shape: shapeOf(pb[p]),
      });
      continue;
    }
    if (!ra.includes(p) && rb.includes(p)) emit({ rule: 'property-became-required', path: sub(p), message: `${sub(p)}: now required` });
    if (ra.includes(p) && !rb.includes(p))
      emit({ rule: 'property-became-optional', path: sub(p), message: `${sub(p)}: no longer required` });
    compareSchema(pa[p] as Schema, pb[p] as Schema, emit, sub(p), seen);
  }
  // Required names without a property schema (rare): still a change in what must be present.
  for (const p of rb)
    if (!ra.includes(p) && !(p in pb)) emit({ rule: 'property-became-required', path: sub(p), message: `${sub(p)}: now required` });
}

function compareAdditionalProperties({ a, b, emit, path, at, seen }: NodeVisit): void {
  const apA = a.additionalProperties,
    apB = b.additionalProperties;
  if (apA !== false && apB === false)
    emit({ rule: 'additional-properties-closed', path, message: `${at}: additional properties no longer allowed` });
  else if (apA === false && apB !== false)
    emit({ rule: 'additional-properties-opened', path, message: `${at}: additional properties now allowed` });
  else if (typeof apA === 'object' && typeof apB === 'object') compareSchema(apA, apB, emit, `${path}{*}`, seen);
}

function compareItems({ a, b, emit, path, seen }: NodeVisit): void {
  if (a.items || b.items) compareSchema(a.items ?? {}, b.items ?? {}, emit, `${path}[]`, seen);
}

/** Alternatives, matched by name, then by schema, then by order (pairVariants). */
function compareVariants({ a, b, emit, path, at, seen }: NodeVisit): void {
  for (const k of ['oneOf', 'anyOf'] as const) {
    const va: Schema[] = a[k] ?? [],
      vb: Schema[] = b[k] ?? [];
    if (!va.length && !vb.length) continue;
    if (!va.length || !vb.length) {
      // One side is a single schema: compare it with the alternatives as a whole is out of reach; report it.
      emit({
        rule: va.length ? 'variants-removed' : 'variants-added',
        path,
        message: `${at}: ${k} ${va.length ? 'removed' : 'introduced'}`,
      });
      continue;
    }
    const { pairs, removed, added } = pairVariants(va, vb);
    for (const [, key] of removed)
      emit({ rule: 'variant-removed', path, message: `${at}: ${k} alternative ${code(key)} removed`, before: key });
    for (const [i, j, key] of pairs) compareSchema(va[i] as Schema, vb[j] as Schema, emit, path ? `${path}<${key}>` : `<${key}>`, seen);
    for (const [, key] of added) emit({ rule: 'variant-added', path, message: `${at}: ${k} alternative ${code(key)} added`, after: key });
  }
}

/** The order in which a node's changes are reported. */
const NODE_STEPS = [
  compareTypes,
  compareConst,
  compareEnum,
  compareConstraints,
  compareAnnotations,
  compareProperties,
  compareAdditionalProperties,
  compareItems,
  compareVariants,
];

function compareParams(
  a: Map<string, Parameter>,
  b: Map<string, Parameter>,
  direction: Direction,
  location: string,
  out: RawChange[],
  noun = 'parameter',
) {
  for (const [k, p] of a) {
    if (!b.has(k))
      out.push({
        rule: `${noun}-removed`,
        direction,
        location,
        where: noun === 'header' ? `header ${p.name}` : `${noun} ${k}`,
        message: `${noun} ${code(p.name)} (${p.in}) removed`,
      });
  }
  for (const [k, q] of b) {
    const p = a.get(k);
    const where = noun === 'header' ? `header ${q.name}` : `${noun} ${k}`;
    if (!p) {
      out.push({
        rule: q.required ? `${noun}-added-required` : `${noun}-added-optional`,
        direction,
        location,
        where,
        message: `${q.required ? 'required' : 'optional'} ${noun} ${code(q.name)} (${q.in}) added`,
      });
      continue;
    }
    if (!p.required && q.required)
      out.push({ rule: `${noun}-became-required`, direction, location, where, message: `${noun} ${code(q.name)} is now required` });
    if (p.required && !q.required)
      out.push({ rule: `${noun}-became-optional`, direction, location, where, message: `${noun} ${code(q.name)} is no longer required` });
    if (!p.deprecated && q.deprecated)
      out.push({ rule: 'deprecated', direction, location, where, message: `${noun} ${code(q.name)} deprecated` });
    if (p.description !== q.description)
      out.push({ rule: 'docs-changed', direction, location, where, message: `${noun} ${code(q.name)}: description changed` });
    compareSchema(p.schema, q.schema, (c) => out.push({ ...c, direction, location, where }));
  }
}

function compareContent(
  a: Map<string, Schema>,
  b: Map<string, Schema>,
  direction: Direction,
  location: string,
  label: string,
  out: RawChange[],
) {
  for (const mt of a.keys())
    if (!b.has(mt))
      out.push({ rule: 'media-type-removed', direction, location, where: label, message: `${label}: media type ${code(mt)} removed` });
  for (const [mt, s] of b) {
    const where = `${label} (${mt})`;
    if (!a.has(mt)) out.push({ rule: 'media-type-added', direction, location, where, message: `${label}: media type ${code(mt)} added` });
    else compareSchema(a.get(mt)!, s, (c) => out.push({ ...c, direction, location, where }));
  }
}

/** Error codes a response can carry: the `error.code` const/enum of the schema or its alternatives. */
export function errorCodes(content: Map<string, Schema>): string[] {
  const codes = new Set<string>();
  const visit = (s: Schema) => {
    const c = s?.properties?.error?.properties?.code;
    if (c?.const !== undefined) codes.add(String(c.const));
    else for (const v of c?.enum ?? []) codes.add(String(v));
    for (const alt of [...(s?.oneOf ?? []), ...(s?.anyOf ?? [])]) visit(alt);
  };
  for (const s of content.values()) visit(s);
  return [...codes].sort();
}

function compareOperation(a: Operation, b: Operation, out: RawChange[]) {
  const location = b.key;
  const push = (c: Omit<RawChange, 'location'>) => out.push({ ...c, location });
  if (!a.deprecated && b.deprecated) push({ rule: 'deprecated', message: 'operation deprecated' });
  if (a.operationId !== b.operationId)
    push({
      rule: 'operation-id-changed',
      message: `operationId ${code(a.operationId)} → ${code(b.operationId)}`,
      before: a.operationId,
      after: b.operationId,
    });
  if (a.summary !== b.summary || a.description !== b.description)
    push({
      rule: 'docs-changed',
      message: `${[a.summary !== b.summary && 'summary', a.description !== b.description && 'description'].filter(Boolean).join(' and ')} changed`,
    });
  compareSecurity(a.security, b.security, location, out);
  if (!same(a.servers, b.servers)) {
    const sa = a.servers ?? ['(document servers)'],
      sb = b.servers ?? ['(document servers)'];
    for (const s of sa) if (!sb.includes(s)) push({ rule: 'server-removed', message: `server ${code(s)} removed from this operation` });
    for (const s of sb) if (!sa.includes(s)) push({ rule: 'server-added', message: `server ${code(s)} added to this operation` });
  }
  compareParams(a.parameters, b.parameters, 'request', location, out);
  const qa = a.requestBody,
    qb = b.requestBody;
  if (qa && !qb) push({ rule: 'request-body-removed', direction: 'request', where: 'request body', message: 'request body removed' });
  else if (!qa && qb)
    push({
      rule: qb.required ? 'request-body-added-required' : 'request-body-added-optional',
      direction: 'request',
      where: 'request body',
      message: `${qb.required ? 'required' : 'optional'} request body added`,
    });
  else if (qa && qb) {
    if (!qa.required && qb.required)
      push({ rule: 'request-body-became-required', direction: 'request', where: 'request body', message: 'request body is now required' });
    if (qa.required && !qb.required)
      push({
        rule: 'request-body-became-optional',
        direction: 'request',
        where: 'request body',
        message: 'request body is no longer required',
      });
    compareContent(qa.content, qb.content, 'request', location, 'request body', out);
  }
  compareResponses(a.responses, b.responses, 'response', location, out);
}

/** Responses: success statuses are compared as schemas; error statuses also by their error codes. */
function compareResponses(a: Operation['responses'], b: Operation['responses'], direction: Direction, location: string, out: RawChange[]) {
  const isError = (s: string) => /^[45]/.test(s);
  for (const s of a.keys()) {
    if (!b.has(s))
      out.push({
        rule: isError(s) ? 'error-response-removed' : 'success-response-removed',
        direction,
        location,
        where: `response ${s}`,
        message: `response ${s} removed`,
      });
  }
  for (const [s, rb] of b) {
    const ra = a.get(s);
    const label = `response ${s}`;
    if (!ra) {
      const codes = errorCodes(rb.content);
      out.push({
        rule: isError(s) ? 'error-response-added' : 'success-response-added',
        direction,
        location,
        where: label,
        message: `response ${s} added${codes.length ? ` (${codes.join(', ')})` : ''}`,
      });
      continue;
    }
    if (ra.description !== rb.description)
      out.push({ rule: 'docs-changed', direction, location, where: label, message: `${label}: description changed` });
    compareParams(ra.headers, rb.headers, direction, location, out, 'header');
    if (isError(s)) {
      const ca = errorCodes(ra.content),
        cb = errorCodes(rb.content);
      for (const c of ca)
        if (!cb.includes(c))
          out.push({
            rule: 'error-code-removed',
            direction,
            location,
            where: label,
            message: `${label}: error code ${code(c)} removed`,
            before: c,
          });
      for (const c of cb)
        if (!ca.includes(c))
          out.push({
            rule: 'error-code-added',
            direction,
            location,
            where: label,
            message: `${label}: error code ${code(c)} added`,
            after: c,
          });
      // The codes are reported above; the schema comparison skips the alternatives and `error.code` values
      // that appear or disappear with them.
      const before = out.length;
      compareContent(ra.content, rb.content, direction, location, label, out);
      const dropped = new Set([...ca.filter((c) => !cb.includes(c)), ...cb.filter((c) => !ca.includes(c))]);
      const kept = out
        .splice(before)
        .filter(
          (c) =>
            !((c.rule === 'variant-added' || c.rule === 'variant-removed') && dropped.has(String(c.after ?? c.before))) &&
            !(dropped.size && /(^|\.)error\.code$/.test(c.path ?? '')),
        );
      out.push(...kept);
    } else compareContent(ra.content, rb.content, direction, location, label, out);
  }
}

function compareSecurity(a: string[], b: string[], location: string, out: RawChange[]) {
  for (const s of a)
    if (!b.includes(s))
      out.push({
        rule: 'security-removed',
        location,
        where: 'security',
        message:
          s === '(none)'
            ? 'anonymous access removed: authentication is now required'
            : `security requirement ${code(s)} no longer accepted`,
      });
  for (const s of b)
    if (!a.includes(s))
      out.push({
        rule: 'security-added',
        location,
        where: 'security',
        message: s === '(none)' ? 'anonymous access now allowed' : `security requirement ${code(s)} now accepted`,
      });
}

function compareEvent(a: EventDef, b: EventDef, location: string, out: RawChange[]) {
  if (!a.deprecated && b.deprecated) out.push({ rule: 'deprecated', location, message: 'event deprecated' });
  if (a.description !== b.description) out.push({ rule: 'docs-changed', location, message: 'description changed' });
  // Receivers consume the payload and the delivery headers: response rules.
  compareParams(a.headers, b.headers, 'response', location, out, 'header');
  compareSchema(a.payload, b.payload, (c) => out.push({ ...c, direction: 'response', location, where: 'payload' }));
}

export function compareModels(a: Model, b: Model): RawChange[] {
  const out: RawChange[] = [];
  // Servers
  for (const [url, vars] of a.servers) {
    const now = b.servers.get(url);
    if (!now) out.push({ rule: 'server-removed', location: 'servers', message: `server ${code(url)} removed` });
    else
      for (const [k, v] of Object.entries(vars))
        if (now[k] !== v)
          out.push({
            rule: 'server-default-changed',
            location: 'servers',
            message: `server ${code(url)}: default of \`${k}\` ${code(v)} → ${code(now[k] ?? '(none)')}`,
          });
  }
  for (const url of b.servers.keys())
    if (!a.servers.has(url)) out.push({ rule: 'server-added', location: 'servers', message: `server ${code(url)} added` });
  // Security schemes
  for (const [k, s] of a.securitySchemes) {
    const t = b.securitySchemes.get(k);
    if (!t) out.push({ rule: 'security-scheme-removed', location: 'security', message: `security scheme ${code(k)} removed` });
    else {
      const { description: da, ...sa } = s,
        { description: db, ...sb } = t;
      if (!same(sa, sb))
        out.push({
          rule: 'security-scheme-changed',
          location: 'security',
          message: `security scheme ${code(k)} changed: ${json(sa)} → ${json(sb)}`,
        });
      else if (da !== db)
        out.push({ rule: 'docs-changed', location: 'security', message: `security scheme ${code(k)}: description changed` });
    }
  }
  for (const k of b.securitySchemes.keys())
    if (!a.securitySchemes.has(k))
      out.push({ rule: 'security-scheme-added', location: 'security', message: `security scheme ${code(k)} added` });
  // Operations
  for (const [k, op] of a.operations)
    if (!b.operations.has(k))
      out.push({ rule: 'operation-removed', location: k, message: `operation removed${op.operationId ? ` (${op.operationId})` : ''}` });
  for (const [k, op] of b.operations) {
    const old = a.operations.get(k);
    if (!old) out.push({ rule: 'operation-added', location: k, message: `operation added${op.operationId ? ` (${op.operationId})` : ''}` });
    else compareOperation(old, op, out);
  }
  // Events, per source. A source absent from one side (no asyncapi.yaml yet) is not compared.
  for (const source of ['webhooks', 'asyncapi'] as const) {
    if (source === 'asyncapi' && !(a.hasAsyncapi && b.hasAsyncapi)) continue;
    const label = source === 'webhooks' ? 'webhook' : 'AsyncAPI message';
    for (const [k, e] of a.events)
      if (e.source === source && !b.events.has(k))
        out.push({ rule: 'event-removed', location: `event ${e.name}`, where: label, message: `${label} removed` });
    for (const [k, e] of b.events) {
      if (e.source !== source) continue;
      const old = a.events.get(k);
      if (!old) out.push({ rule: 'event-added', location: `event ${e.name}`, where: label, message: `${label} added` });
      else compareEvent(old, e, `event ${e.name}`, out);
    }
  }
  return dedupe(out);
}

/** The webhooks and the AsyncAPI document share event files: report a shared change once. */
function dedupe(changes: RawChange[]): RawChange[] {
  const seen = new Set<string>();
  return changes.filter((c) => {
    const k = json([c.rule, c.location, c.where, c.path, c.message]);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
