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

export function planReal(state: HookState, transactions: DreddTransaction[]): void {
  const out: DreddTransaction[] = [];
  const { config } = state;
  let statuses: Map<string, number> | undefined;
  /** The error code a simulated fault answers with: the one the contract gives its status (500 -> INTERNAL_ERROR). */
  const faultCode = (status: string) => {
    statuses ??= errorStatuses(state.validator.bundle as JsonObject);
    return codeOfStatus(statuses, Number(status));
  };
  for (const t of transactions) {
    const { method } = t.request;
    const path = t.origin.resourceName;
    const status = t.expected.statusCode;
    const operationId = state.validator.operation(method, path)?.operationId;
    const codes = state.validator.errorCodes(method, path, status);
    t.conformance = { path, status };
    setHeader(t, 'Authorization', `Bearer ${config.apiKey}`);
    // Dredd sends the example Idempotency-Key with every request; one key reused on another request is
    // refused (422 idempotency_key_reused), so each transaction gets its own.
    if (hasHeaderParam(state, method, path, 'Idempotency-Key')) setHeader(t, 'Idempotency-Key', randomUUID());
    const gift = isGiftCards(path);
    if (gift && config.altServer && status !== '421') sendToAltServer(t, config.altServer);
    out.push(t);
    if (gift && !config.altServer && status !== '421') {
      skip(t, 'gift card operations are served at {alt_base_url}: pass --alt-server <url>');
      continue;
    }
    if (status.startsWith('2')) {
      // The money it spends could not be brought into place (balances.ts): refused for it, it would fail for the account's state.
      const unfunded = config.unfunded?.[`${method} ${path}`];
      if (unfunded) {
        skip(t, unfunded);
        continue;
      }
      const needs = NEEDS_STATE[`${method} ${path}`];
      const code = needs ? state.resources.get(needs.key) : undefined;
      if (needs && !code) skip(t, state.missing.get(needs.key) ?? needs.reason);
      else if (substituteResources(state, t, path) && needs && code) setPathParam(t, path, needs.param, code);
    } else if (status === '401') {
      // Both codes: no key (AUTHENTICATION_REQUIRED) and a key the server does not know (AUTHENTICATION_FAILED).
      substituteResources(state, t, path, { lenient: true });
      setHeader(t, 'Authorization', undefined);
      const codes = state.validator.errorCodes(method, path, status);
      if (codes.includes('AUTHENTICATION_REQUIRED')) t.conformance.expectCode = 'AUTHENTICATION_REQUIRED';
      if (codes.includes('AUTHENTICATION_FAILED')) {
        const wrongKey = clone(t, 'AUTHENTICATION_FAILED');
        wrongKey.conformance = {
          path,
          status,
          example: 'AUTHENTICATION_FAILED',
          expectCode: 'AUTHENTICATION_FAILED',
          skipReason: t.conformance.skipReason,
        };
        setHeader(wrongKey, 'Authorization', `Bearer ${config.unknownKey ?? `sk_test_conformance_${randomUUID().replace(/-/g, '')}`}`);
        out.push(wrongKey);
      }
    } else if (status === '404') {
      t.conformance.expectCode = 'RESOURCE_NOT_FOUND';
      const { pathname } = splitUri(t.request.uri);
      const params = [...pathParams(path, pathname).keys()];
      const uuidParam = params.find((name) => isReferenceParam(state, method, path, name));
      if (uuidParam) {
        if (!substituteResources(state, t, path, { keepParam: uuidParam })) continue;
        const { pathname: p2, query } = splitUri(t.request.uri);
        const ps = pathParams(path, p2);
        ps.set(uuidParam, unknownReference(state, method, path, uuidParam));
        setUri(t, fillTemplate(path, ps), query);
        continue;
      }
      if (!substituteResources(state, t, path, { lenient: true })) continue;
      const body = parseBody(t.request.body);
      const ref = isObject(body) ? Object.keys(body).find((k) => k in BODY_REFERENCES) : undefined;
      if (isObject(body) && ref) {
        body[ref] = randomUUID();
        t.request.body = JSON.stringify(body);
        continue;
      }
      const { pathname: p3, query } = splitUri(t.request.uri);
      if (query.has('customer_code') || parameters(state, method, path).some((p) => p.name === 'customer_code' && p.in === 'query')) {
        query.set('customer_code', randomUUID());
        setUri(t, p3, query);
        continue;
      }
      const unheld = state.resources.get('unheld balance type');
      if (params.length === 1 && path.startsWith('/balance/') && unheld && config.noProductKey) {
        // A documented balance type that the account of --no-product-key does not hold.
        setPathParam(t, path, params[0]!, unheld);
        setHeader(t, 'Authorization', `Bearer ${config.noProductKey}`);
        continue;
      }
      if (params.length)
        skip(
          t,
          'the only path parameter is a closed set: an unknown value is a 422, and which documented value the account lacks cannot be known',
        );
      else skip(t, 'nothing in the request refers to a resource, so no unknown one can be named');
    } else if (status === '422') {
      t.conformance.expectCode = 'VALIDATION_ERROR';
      // The body is replaced by an invalid one, so only the codes in the path must be real.
      if (!substituteResources(state, t, path, { lenient: !path.includes('{') })) continue;
      const { pathname, query } = splitUri(t.request.uri);
      const bad = invalidBody(state, method, path);
      if (bad !== undefined) {
        t.request.body = JSON.stringify(bad);
        setHeader(t, 'Content-Type', 'application/json');
        continue;
      }
      const params = pathParams(path, pathname);
      if (params.size) {
        const [name] = [...params.keys()];
        params.set(name!, 'not-a-valid-code');
        setUri(t, fillTemplate(path, params), query);
        continue;
      }
      const defs = parameters(state, method, path);
      if (defs.some((d) => d.name === 'limit' && d.in === 'query')) {
        query.set('limit', '0');
        setUri(t, pathname, query);
        continue;
      }
      skip(t, 'the operation takes no parameter or body that can be made invalid');
    } else if (status === '403' && config.ipBlockedKey) {
      // Refused for the key, before the request is looked at: a key whose allow-list excludes this machine.
      const [key, code] = [config.ipBlockedKey, 'IP_NOT_ALLOWED'];
      if (!state.validator.errorCodes(method, path, status).includes(code)) {
        skip(t, UNPROVOKABLE[status]!);
        continue;
      }
      substituteResources(state, t, path, { lenient: true });
      setHeader(t, 'Authorization', `Bearer ${key}`);
      t.conformance.example = code;
      t.conformance.expectCode = code;
    } else if (status === '421' && gift) {
      if (!config.altServer || sameBase(config.altServer, config.server)) {
        skip(t, UNPROVOKABLE['421']!);
        continue;
      }
      // Sent to {base_url} instead of {alt_base_url}: the server must refuse it with wrong_api_host.
      t.conformance.expectCode = 'wrong_api_host';
      substituteResources(state, t, path);
    } else if (status === '429' && config.rateLimitedKey && codes.includes('RATE_LIMIT_EXCEEDED')) {
      // A key with no request left in the current minute (arrange.ts spends its window just before).
      substituteResources(state, t, path, { lenient: true });
      setHeader(t, 'Authorization', `Bearer ${config.rateLimitedKey}`);
      t.conformance.expectCode = 'RATE_LIMIT_EXCEEDED';
      t.conformance.arrange = { kind: 'exhaust', probePath: probePath(state) };
    } else if (status === '402' && config.noProductKey && codes.includes('PLAN_UPGRADE_REQUIRED')) {
      substituteResources(state, t, path, { lenient: true });
      setHeader(t, 'Authorization', `Bearer ${config.noProductKey}`);
      t.conformance.expectCode = 'PLAN_UPGRADE_REQUIRED';
    } else if ((status === '500' || status === '502') && config.simulationUrl && operationId && codes.includes(faultCode(status))) {
      // A simulated fault of the sandbox, armed for this operation just before the request.
      substituteResources(state, t, path, { lenient: true });
      t.conformance.expectCode = faultCode(status);
      t.conformance.arrange = { kind: 'fault', operationId, status: Number(status) };
    } else if (status === '400' && config.simulationUrl && codes.includes('INSUFFICIENT_BALANCE')) {
      t.conformance.expectCode = 'INSUFFICIENT_BALANCE';
      if (!substituteResources(state, t, path)) continue;
      const body = parseBody(t.request.body);
      const spare = state.resources.get('spare quote');
      if (isObject(body) && typeof body.quote_code === 'string' && spare) {
        body.quote_code = spare;
        t.request.body = JSON.stringify(body);
      }
      // A withdrawal is refused for the card's own balance; the other operations for an ops balance.
      t.conformance.arrange =
        path === '/cards/{code}/withdraw'
          ? { kind: 'card-balance', cardPath: splitUri(t.request.uri).pathname.replace(/\/withdraw$/, '') }
          : { kind: 'drain' };
    } else {
      skip(t, UNPROVOKABLE[status] ?? `status ${status} cannot be provoked from outside`);
    }
  }
  // Destructive operations last, so the customer, the card and the beneficiary stay usable for the others.
  const last = (t: DreddTransaction) =>
    t.conformance?.status.startsWith('2') && (/\/(terminate|deactivate)$/.test(t.conformance.path) || t.request.method === 'DELETE')
      ? 1
      : 0;
  out.sort((a, b) => last(a) - last(b));
  transactions.splice(0, transactions.length, ...out);
}
