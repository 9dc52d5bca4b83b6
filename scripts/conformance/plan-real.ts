// Real mode: each transaction made sendable against a real server. The codes set up (setup.ts) go into its
// path and body; its key, body or path is changed to provoke the status it documents (401 with no key or a
// wrong one, 404 with an unknown reference, 422 with an invalid request, 402/403/429 with the keys given,
// 400/500/502 through the simulation API); what cannot be provoked is skipped with the reason.
import { randomUUID } from 'node:crypto';
import { codeOfStatus, errorStatuses, isObject, type Json, type JsonObject } from '../lib/pointer.ts';
import { hasHeaderParam, isGiftCards, isReferenceParam, parameters, requestBodySchema, resolveRef, unknownReference } from './contract.ts';
import { adjustBody, BODY_REFERENCES, label, resourceKey, substituteBody } from './resources.ts';
import {
  clone,
  fillTemplate,
  parseBody,
  pathParams,
  sendToAltServer,
  setHeader,
  setPathParam,
  setUri,
  skip,
  splitUri,
} from './transaction.ts';
import type { DreddTransaction, HookState } from './types.ts';

/** Statuses a real server cannot be made to answer from outside, with the reason. */
const UNPROVOKABLE: Record<string, string> = {
  '400': 'INSUFFICIENT_BALANCE needs an ops balance lower than the amount; the suite does not drain balances',
  '402': 'PLAN_UPGRADE_REQUIRED needs a key whose plan lacks the product',
  '403': 'needs a suspended or restricted account, a caller IP outside the allow-list, or a reached plan limit',
  '409': 'a conflict cannot be provoked generically',
  '421': 'wrong_api_host is provoked only when --alt-server gives a gift card base address other than --server',
  '429': 'RATE_LIMIT_EXCEEDED needs more requests than the key allows per minute; the suite does not flood the server',
  '500': 'INTERNAL_ERROR cannot be provoked from outside',
  '502': 'OPERATION_FAILED needs a failing provider (card issuer, rail, chain, verification or gift card vendor)',
  '503': 'cannot be provoked from outside',
};

/**
 * Successful answers that need a state the suite cannot bring about through the partner API alone: the resource
 * (set up through --simulation-url) the path parameter takes, and the reason to skip without it.
 */
const NEEDS_STATE: Record<string, { param: string; key: string; reason: string }> = {
  'POST /kyc/{customerCode}/synchronize': {
    param: 'customerCode',
    key: 'identity-mismatched customer',
    reason:
      'needs a customer restricted for an identity mismatch, an outcome of the verification provider that the partner API cannot bring about',
  },
};

/** Real mode: put the codes set up into the path and the body; false (and skipped) when one is missing. */
function substituteResources(
  state: HookState,
  t: DreddTransaction,
  path: string,
  options: { keepParam?: string; lenient?: boolean } = {},
): boolean {
  const { keepParam, lenient = false } = options;
  const { pathname, query } = splitUri(t.request.uri);
  const params = pathParams(path, pathname);
  for (const name of params.keys()) {
    if (name === keepParam) continue;
    if (!isReferenceParam(state, t.request.method, path, name)) continue; // a closed set (balance type): the example is real
    const key = resourceKey(path, name);
    const code = state.resources.get(key);
    if (!code) {
      if (lenient) continue;
      skip(t, `needs a ${label(key)}: ${state.missing.get(key) ?? 'not set up'}`);
      return false;
    }
    params.set(name, code);
  }
  if (query.has('customer_code')) {
    const code = state.resources.get('customer');
    if (code) query.set('customer_code', code);
    else query.delete('customer_code');
  }
  setUri(t, fillTemplate(path, params), query);
  const body = parseBody(t.request.body);
  if (body !== undefined) {
    const missing = substituteBody(state, body);
    if (missing.length && !lenient) {
      skip(
        t,
        `the request body needs a ${missing.map(label).join(', ')}: ${missing.map((k) => state.missing.get(k) ?? 'not set up').join('; ')}`,
      );
      return false;
    }
    if (isObject(body)) adjustBody(state.config, t.request.method, path, body);
    t.request.body = JSON.stringify(body);
  }
  return true;
}

/** A request body the operation must refuse with 422: missing required fields, or wrong types. */
function invalidBody(state: HookState, method: string, path: string): Json | undefined {
  const schema = requestBodySchema(state, method, path);
  if (!schema) return undefined;
  if (Array.isArray(schema.required) && schema.required.length) return {};
  // One of several shapes (SEPA or ACH ...): an empty object matches none of them.
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf) || Array.isArray(schema.allOf)) return {};
  const props = isObject(schema.properties) ? schema.properties : {};
  const out: JsonObject = {};
  for (const [name, p] of Object.entries(props)) {
    const s = resolveRef(state, p);
    const type = s?.type;
    out[name] = type === 'string' || (Array.isArray(type) && type.includes('string')) ? 12345 : 'not-a-valid-value';
  }
  return Object.keys(out).length ? out : undefined;
}

/** Two base URLs that are the same address (then no gift card request can be sent to the wrong one). */
function sameBase(a: string, b: string): boolean {
  const norm = (u: string) => new URL(u).href.replace(/\/+$/, '');
  return norm(a) === norm(b);
}

/** The request that spends a rate-limited key's window: the first GET without path parameters (not a gift card one). */
function probePath(state: HookState): string {
  return state.validator.operations().find((o) => o.method === 'GET' && !o.path.includes('{') && !isGiftCards(o.path))?.path ?? '/';
}

type Conformance = NonNullable<DreddTransaction['conformance']>;

/** What every branch of the plan knows of one transaction. */
interface Planned {
  state: HookState;
  t: DreddTransaction;
  /** What the run expects of it (set by prepare). */
  conformance: Conformance;
  method: string;
  /** The path template of the contract. */
  path: string;
  status: string;
  /** The error codes the contract documents for this status. */
  codes: string[];
  operationId: string | undefined;
  gift: boolean;
  /** The error code a simulated fault answers with: the one the contract gives its status (500 -> INTERNAL_ERROR). */
  faultCode: (status: string) => string;
}

/** A success: the codes set up in its path and body, or skipped for the money or state it needs. */
function planSuccess({ state, t, method, path }: Planned): void {
  // The money it spends could not be brought into place (balances.ts): refused for it, it would fail for the account's state.
  const unfunded = state.config.unfunded?.[`${method} ${path}`];
  if (unfunded) {
    skip(t, unfunded);
    return;
  }
  const needs = NEEDS_STATE[`${method} ${path}`];
  const code = needs ? state.resources.get(needs.key) : undefined;
  if (needs && !code) skip(t, state.missing.get(needs.key) ?? needs.reason);
  else if (substituteResources(state, t, path) && needs && code) setPathParam(t, path, needs.param, code);
}

/** 401, both codes: no key (AUTHENTICATION_REQUIRED) and, as a second transaction, a key the server does not know (AUTHENTICATION_FAILED). */
function planUnauthorized({ conformance, state, t, path, status, codes }: Planned): DreddTransaction[] {
  substituteResources(state, t, path, { lenient: true });
  setHeader(t, 'Authorization', undefined);
  if (codes.includes('AUTHENTICATION_REQUIRED')) conformance.expectCode = 'AUTHENTICATION_REQUIRED';
  if (!codes.includes('AUTHENTICATION_FAILED')) return [];
  const wrongKey = clone(t, 'AUTHENTICATION_FAILED');
  wrongKey.conformance = {
    path,
    status,
    example: 'AUTHENTICATION_FAILED',
    expectCode: 'AUTHENTICATION_FAILED',
    skipReason: conformance.skipReason,
  };
  const unknownKey = state.config.unknownKey ?? `sk_test_conformance_${randomUUID().replace(/-/g, '')}`;
  setHeader(wrongKey, 'Authorization', `Bearer ${unknownKey}`);
  return [wrongKey];
}

/** 404: the first reference the request makes (a path parameter, a body field, a customer filter, a balance type) made unknown. */
function planNotFound({ conformance, state, t, method, path }: Planned): void {
  conformance.expectCode = 'RESOURCE_NOT_FOUND';
  const params = [...pathParams(path, splitUri(t.request.uri).pathname).keys()];
  const uuidParam = params.find((name) => isReferenceParam(state, method, path, name));
  if (uuidParam) {
    if (!substituteResources(state, t, path, { keepParam: uuidParam })) return;
    const { pathname, query } = splitUri(t.request.uri);
    const ps = pathParams(path, pathname);
    ps.set(uuidParam, unknownReference(state, method, path, uuidParam));
    setUri(t, fillTemplate(path, ps), query);
    return;
  }
  if (!substituteResources(state, t, path, { lenient: true })) return;
  if (unknownBodyReference(t) || unknownCustomerFilter(state, t, method, path) || unheldBalanceType(state, t, path, params)) return;
  if (params.length)
    skip(
      t,
      'the only path parameter is a closed set: an unknown value is a 422, and which documented value the account lacks cannot be known',
    );
  else skip(t, 'nothing in the request refers to a resource, so no unknown one can be named');
}

/** A body field naming a resource, given an unknown one; false when the body names none. */
function unknownBodyReference(t: DreddTransaction): boolean {
  const body = parseBody(t.request.body);
  const ref = isObject(body) ? Object.keys(body).find((k) => k in BODY_REFERENCES) : undefined;
  if (!isObject(body) || !ref) return false;
  body[ref] = randomUUID();
  t.request.body = JSON.stringify(body);
  return true;
}

/** The `customer_code` filter, given an unknown customer; false when the operation has none. */
function unknownCustomerFilter(state: HookState, t: DreddTransaction, method: string, path: string): boolean {
  const { pathname, query } = splitUri(t.request.uri);
  if (!query.has('customer_code') && !parameters(state, method, path).some((p) => p.name === 'customer_code' && p.in === 'query'))
    return false;
  query.set('customer_code', randomUUID());
  setUri(t, pathname, query);
  return true;
}

/** A documented balance type that the account of --no-product-key does not hold; false when there is none to ask for. */
function unheldBalanceType(state: HookState, t: DreddTransaction, path: string, params: string[]): boolean {
  const unheld = state.resources.get('unheld balance type');
  if (params.length !== 1 || !path.startsWith('/balance/') || !unheld || !state.config.noProductKey) return false;
  setPathParam(t, path, params[0]!, unheld);
  setHeader(t, 'Authorization', `Bearer ${state.config.noProductKey}`);
  return true;
}

/** 422: an invalid body, else an invalid path parameter, else a `limit` of 0. */
function planInvalid({ conformance, state, t, method, path }: Planned): void {
  conformance.expectCode = 'VALIDATION_ERROR';
  // The body is replaced by an invalid one, so only the codes in the path must be real.
  if (!substituteResources(state, t, path, { lenient: !path.includes('{') })) return;
  const { pathname, query } = splitUri(t.request.uri);
  const bad = invalidBody(state, method, path);
  if (bad !== undefined) {
    t.request.body = JSON.stringify(bad);
    setHeader(t, 'Content-Type', 'application/json');
    return;
  }
  const params = pathParams(path, pathname);
  if (params.size) {
    const [name] = [...params.keys()];
    params.set(name!, 'not-a-valid-code');
    setUri(t, fillTemplate(path, params), query);
    return;
  }
  if (parameters(state, method, path).some((d) => d.name === 'limit' && d.in === 'query')) {
    query.set('limit', '0');
    setUri(t, pathname, query);
    return;
  }
  skip(t, 'the operation takes no parameter or body that can be made invalid');
}

/** 403: refused for the key, before the request is looked at: a key whose allow-list excludes this machine. */
function planIpBlocked({ conformance, state, t, path, status, codes }: Planned, key: string): void {
  const code = 'IP_NOT_ALLOWED';
  if (!codes.includes(code)) {
    skip(t, UNPROVOKABLE[status]!);
    return;
  }
  substituteResources(state, t, path, { lenient: true });
  setHeader(t, 'Authorization', `Bearer ${key}`);
  conformance.example = code;
  conformance.expectCode = code;
}

/** 421: a gift card operation sent to {base_url} instead of {alt_base_url}, which the server must refuse with wrong_api_host. */
function planWrongHost({ conformance, state, t, path }: Planned): void {
  const { altServer, server } = state.config;
  if (!altServer || sameBase(altServer, server)) {
    skip(t, UNPROVOKABLE['421']!);
    return;
  }
  conformance.expectCode = 'wrong_api_host';
  substituteResources(state, t, path);
}

/** The request sent with another key, which the server refuses with `code` whatever the request. */
function planWithKey({ conformance, state, t, path }: Planned, key: string, code: string): void {
  substituteResources(state, t, path, { lenient: true });
  setHeader(t, 'Authorization', `Bearer ${key}`);
  conformance.expectCode = code;
}

/** 500/502: a simulated fault of the sandbox, armed for this operation just before the request. */
function planFault({ conformance, state, t, path, status, operationId, faultCode }: Planned): void {
  substituteResources(state, t, path, { lenient: true });
  conformance.expectCode = faultCode(status);
  conformance.arrange = { kind: 'fault', operationId: operationId!, status: Number(status) };
}

/** 400 INSUFFICIENT_BALANCE: the balance the operation spends drained just before (a spare quote where it takes one). */
function planInsufficient({ conformance, state, t, path }: Planned): void {
  conformance.expectCode = 'INSUFFICIENT_BALANCE';
  if (!substituteResources(state, t, path)) return;
  const body = parseBody(t.request.body);
  const spare = state.resources.get('spare quote');
  if (isObject(body) && typeof body.quote_code === 'string' && spare) {
    body.quote_code = spare;
    t.request.body = JSON.stringify(body);
  }
  // A withdrawal is refused for the card's own balance; the other operations for an ops balance.
  conformance.arrange =
    path === '/cards/{code}/withdraw'
      ? { kind: 'card-balance', cardPath: splitUri(t.request.uri).pathname.replace(/\/withdraw$/, '') }
      : { kind: 'drain' };
}

/** The transaction made to provoke its status, or skipped with the reason; returns the extra transactions it adds. */
function planStatus(p: Planned): DreddTransaction[] {
  const { config } = p.state;
  const { status, codes, t } = p;
  if (status.startsWith('2')) planSuccess(p);
  else if (status === '401') return planUnauthorized(p);
  else if (status === '404') planNotFound(p);
  else if (status === '422') planInvalid(p);
  else if (status === '403' && config.ipBlockedKey) planIpBlocked(p, config.ipBlockedKey);
  else if (status === '421' && p.gift) planWrongHost(p);
  else if (status === '429' && config.rateLimitedKey && codes.includes('RATE_LIMIT_EXCEEDED')) {
    // A key with no request left in the current minute (arrange.ts spends its window just before).
    planWithKey(p, config.rateLimitedKey, 'RATE_LIMIT_EXCEEDED');
    p.conformance.arrange = { kind: 'exhaust', probePath: probePath(p.state) };
  } else if (status === '402' && config.noProductKey && codes.includes('PLAN_UPGRADE_REQUIRED'))
    planWithKey(p, config.noProductKey, 'PLAN_UPGRADE_REQUIRED');
  else if ((status === '500' || status === '502') && config.simulationUrl && p.operationId && codes.includes(p.faultCode(status)))
    planFault(p);
  else if (status === '400' && config.simulationUrl && codes.includes('INSUFFICIENT_BALANCE')) planInsufficient(p);
  else skip(t, UNPROVOKABLE[status] ?? `status ${status} cannot be provoked from outside`);
  return [];
}

/** Every transaction with its key, a fresh Idempotency-Key and its server; undefined when it cannot be sent at all. */
function prepare(state: HookState, t: DreddTransaction, path: string, status: string): Conformance | undefined {
  const { config } = state;
  const { method } = t.request;
  const conformance: Conformance = { path, status };
  t.conformance = conformance;
  setHeader(t, 'Authorization', `Bearer ${config.apiKey}`);
  // Dredd sends the example Idempotency-Key with every request; one key reused on another request is
  // refused (422 idempotency_key_reused), so each transaction gets its own.
  if (hasHeaderParam(state, method, path, 'Idempotency-Key')) setHeader(t, 'Idempotency-Key', randomUUID());
  if (!isGiftCards(path) || status === '421') return conformance;
  if (config.altServer) {
    sendToAltServer(t, config.altServer);
    return conformance;
  }
  skip(t, 'gift card operations are served at {alt_base_url}: pass --alt-server <url>');
  return undefined;
}

/** Destructive operations last, so the customer, the card and the beneficiary stay usable for the others. */
function destructiveLast(transactions: DreddTransaction[]): void {
  const last = (t: DreddTransaction) =>
    t.conformance?.status.startsWith('2') && (/\/(terminate|deactivate)$/.test(t.conformance.path) || t.request.method === 'DELETE')
      ? 1
      : 0;
  transactions.sort((a, b) => last(a) - last(b));
}

/** Real mode: every transaction made to provoke its status against the server, or skipped with the reason; destructive ones last. */
export function planReal(state: HookState, transactions: DreddTransaction[]): void {
  const out: DreddTransaction[] = [];
  let statuses: Map<string, number> | undefined;
  const faultCode = (status: string) => {
    statuses ??= errorStatuses(state.validator.bundle as JsonObject);
    return codeOfStatus(statuses, Number(status));
  };
  for (const t of transactions) {
    const { method } = t.request;
    const path = t.origin.resourceName;
    const status = t.expected.statusCode;
    out.push(t);
    const conformance = prepare(state, t, path, status);
    if (!conformance) continue;
    const operationId = state.validator.operation(method, path)?.operationId;
    const codes = state.validator.errorCodes(method, path, status);
    out.push(...planStatus({ state, t, conformance, method, path, status, codes, operationId, gift: isGiftCards(path), faultCode }));
  }
  destructiveLast(out);
  transactions.splice(0, transactions.length, ...out);
}
