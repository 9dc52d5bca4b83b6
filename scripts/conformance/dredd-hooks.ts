// The logic behind scripts/conformance/hooks.cjs (the file Dredd loads). Dredd makes one transaction per
// documented response status of each operation, sends the request examples, and checks only the status,
// the headers and the required properties of the first example. These hooks:
//   - set `Authorization: Bearer <key>`;
//   - against the mock: clone each transaction once per named example of its status and ask Prism for that
//     example (`Prefer: code=<status>, example=<name>`), so every code of a multi-code status is exercised;
//   - against a real server: create the state the requests need (webhook endpoint, customer, card ...) and
//     put the real codes in paths and bodies; provoke 401 (no key / a wrong key), 404 (an unknown uuid) and
//     422 (an invalid request); skip, with the reason, what cannot be set up or provoked;
//   - normalise `Content-Type` (`application/json; charset=utf-8` -> `application/json`);
//   - validate every response strictly (validate-response.ts) and fail the transaction with the JSON pointer
//     and the problem;
//   - write one record per transaction to the results file the runner summarises.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  createResponseValidator,
  formatErrors,
  normaliseContentType,
  type ResponseValidator,
} from './validate-response.ts';
import { deref, isObject, type Json, type JsonObject } from '../lib/pointer.ts';
import { arrange, call, dataOf, restore, simulate, type Arrangement } from './arrange.ts';

export interface ConformanceConfig {
  spec: string;
  server: string;
  apiKey: string;
  mode: 'mock' | 'real';
  /** Where gift card operations are served ({alt_base_url}); real mode only. */
  altServer?: string;
  /** https URL that answers the webhook ping with 2xx, used to create the webhook endpoint (real mode). */
  webhookUrl?: string;
  /** A key the server refuses (revoked or unknown), for the 401 AUTHENTICATION_FAILED transactions (real mode). */
  unknownKey?: string;
  /** A key whose IP allow-list excludes the suite's address, for the 403 IP_NOT_ALLOWED transactions (real mode). */
  ipBlockedKey?: string;
  /** A key allowed very few requests a minute (1 is best): the 429 transactions spend its window, then send it (real mode). */
  rateLimitedKey?: string;
  /** A key whose plan or subscription includes none of the gated products, for the 402 transactions (real mode). */
  noProductKey?: string;
  /**
   * The simulation API of a sandbox (spec/sandbox.yaml, `http://HOST:PORT/sandbox`): the suite uses it to arm
   * 500/502 faults, drain ops balances for 400 INSUFFICIENT_BALANCE and choose a KYC identity mismatch (real mode).
   */
  simulationUrl?: string;
  results: string;
}

export interface TransactionRecord {
  name: string;
  method: string;
  path: string;
  operationId?: string;
  status: string;
  example?: string;
  outcome: 'passed' | 'failed' | 'skipped';
  actualStatus?: number;
  message?: string;
  /** Fields of the response body the contract does not document (JSON Pointers): warnings, not failures. */
  undocumented?: string[];
}

/** The parts of a Dredd transaction the hooks use. */
export interface DreddTransaction {
  name: string;
  id: string;
  host: string;
  port: string;
  protocol: string;
  fullPath: string;
  request: { method: string; uri: string; headers: Record<string, string>; body: string };
  expected: { statusCode: string; headers: Record<string, string>; body?: string; bodySchema?: unknown };
  real?: { statusCode: number; headers: Record<string, string>; body: string };
  origin: { resourceName: string; actionName: string; exampleName: string };
  skip?: boolean;
  fail?: boolean | string;
  test?: { valid?: boolean; message?: string; status?: string };
  errors?: { severity: string; message: string }[];
  /** Added by these hooks. */
  conformance?: {
    path: string;
    status: string;
    example?: string;
    expectCode?: string;
    skipReason?: string;
    /** State brought about just before the transaction and undone just after (arrange.ts). */
    arrange?: Arrangement;
    /** What went wrong bringing it about (reported with the transaction). */
    arrangeProblem?: string;
  };
}


export interface HookState {
  config: ConformanceConfig;
  validator: ResponseValidator;
  records: TransactionRecord[];
  /** Real mode: codes of the resources set up, by resource key ('/cards/{code}', 'customer' ...). */
  resources: Map<string, string>;
  /** Real mode: why a resource could not be set up, by resource key. */
  missing: Map<string, string>;
  /** Real mode: what the set-up did, for the report. */
  setupLog: string[];
}

export function createState(configFile: string): HookState {
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as ConformanceConfig;
  const bundle = JSON.parse(readFileSync(config.spec, 'utf8'));
  return { config, validator: createResponseValidator(bundle), records: [], resources: new Map(), missing: new Map(), setupLog: [] };
}

// ---------------------------------------------------------------------------------------------------------
// Small helpers over a transaction.

function splitUri(uri: string): { pathname: string; query: URLSearchParams } {
  const i = uri.indexOf('?');
  return i < 0
    ? { pathname: uri, query: new URLSearchParams() }
    : { pathname: uri.slice(0, i), query: new URLSearchParams(uri.slice(i + 1)) };
}

function setUri(t: DreddTransaction, pathname: string, query: URLSearchParams): void {
  const prefix = t.fullPath.slice(0, t.fullPath.length - t.request.uri.length);
  const q = query.toString();
  t.request.uri = q ? `${pathname}?${q}` : pathname;
  t.fullPath = prefix + t.request.uri;
}

/** Path parameters of a concrete path, by name, given its template. */
function pathParams(template: string, pathname: string): Map<string, string> {
  const names = template.split('/');
  const values = pathname.split('/');
  const out = new Map<string, string>();
  names.forEach((seg, i) => {
    const m = /^\{(.+)\}$/.exec(seg);
    if (m) out.set(m[1]!, decodeURIComponent(values[i] ?? ''));
  });
  return out;
}

function fillTemplate(template: string, params: Map<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params.get(name) ?? ''));
}

function setHeader(t: DreddTransaction, name: string, value: string | undefined): void {
  for (const key of Object.keys(t.request.headers)) if (key.toLowerCase() === name.toLowerCase()) delete t.request.headers[key];
  if (value !== undefined) t.request.headers[name] = value;
}

function parseBody(body: string): Json | undefined {
  if (!body) return undefined;
  try {
    return JSON.parse(body) as Json;
  } catch {
    return undefined;
  }
}

function clone(t: DreddTransaction, suffix: string): DreddTransaction {
  const copy = structuredClone({ ...t, conformance: undefined }) as DreddTransaction;
  copy.name = `${t.name} > ${suffix}`;
  copy.id = `${t.id} ${suffix}`;
  return copy;
}

/** Follows `$ref`s (internal, `#/...`) to the object they point at. */
function resolveRef(state: HookState, node: Json | undefined): JsonObject | undefined {
  const resolved = deref(state.validator.bundle, node);
  return isObject(resolved) ? resolved : undefined;
}

/** The operation's parameter objects (path item and operation level, $refs resolved). */
function parameters(state: HookState, method: string, template: string): JsonObject[] {
  const paths = (state.validator.bundle as JsonObject).paths;
  const item = isObject(paths) ? paths[template] : undefined;
  const op = isObject(item) ? item[method.toLowerCase()] : undefined;
  const list = [
    ...(isObject(item) && Array.isArray(item.parameters) ? item.parameters : []),
    ...(isObject(op) && Array.isArray(op.parameters) ? op.parameters : []),
  ];
  return list.map((p) => resolveRef(state, p)).filter((p): p is JsonObject => p !== undefined);
}

function hasHeaderParam(state: HookState, method: string, template: string, name: string): boolean {
  return parameters(state, method, template).some((p) => p.in === 'header' && String(p.name).toLowerCase() === name.toLowerCase());
}

function requestBodySchema(state: HookState, method: string, template: string): JsonObject | undefined {
  const info = state.validator.operation(method, template);
  const rb = resolveRef(state, info?.operation.requestBody);
  const content = rb && isObject(rb.content) ? rb.content : undefined;
  const media = content ? Object.values(content).find(isObject) : undefined;
  return media ? resolveRef(state, media.schema) : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Real mode: which resource a path parameter or a body field refers to.

/** Resource key of a path parameter: `customer` for every `{customerCode}`, else the template up to it. */
export function resourceKey(template: string, param: string): string {
  // KYC and proof of address need a customer whose verification is still open (not the fully verified
  // example customer of a seeded sandbox): the suite creates one for them.
  // Proof of address needs one whose KYC is approved and whose proof of address is still open.
  if (param === 'customerCode') return template.startsWith('/kyc/') ? 'unverified customer' : template.startsWith('/poa/') ? 'KYC-verified customer' : 'customer';
  const segments = template.split('/');
  const i = segments.indexOf(`{${param}}`);
  return segments.slice(0, i + 1).join('/');
}

/** Resource key of a body field that references another resource. */
const BODY_REFERENCES: Record<string, string> = {
  customer_code: 'customer',
  card_code: '/cards/{code}',
  beneficiary_code: '/payouts/beneficiaries/{code}',
  quote_code: 'quote',
  webhook_code: '/webhooks/{code}',
  endpoint_code: '/webhooks/{code}',
  product_id: '/gift-cards/products/{productId}',
};

const RESOURCE_LABEL: Record<string, string> = {
  customer: 'customer',
  'unverified customer': 'customer whose verification is open',
  'KYC-verified customer': 'customer whose KYC is approved and proof of address open',
  quote: 'payout quote',
  '/cards/{code}': 'card',
  '/webhooks/{code}': 'webhook endpoint',
  '/virtual-accounts/{code}': 'virtual account',
  '/gift-cards/orders/{code}': 'gift card order',
  '/payouts/{code}': 'payout',
  '/payouts/beneficiaries/{code}': 'beneficiary',
  '/cards/{code}/topups/{topupId}': 'card top-up',
  '/gift-cards/products/{productId}': 'gift card product',
  '/events/{id}': 'event',
  'identity-mismatched customer': 'customer restricted for an identity mismatch',
  'spare quote': 'second payout quote',
  'unheld balance type': 'balance type that --no-product-key does not hold',
};
const label = (key: string) => RESOURCE_LABEL[key] ?? key;

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
    reason: 'needs a customer restricted for an identity mismatch, an outcome of the verification provider that the partner API cannot bring about',
  },
};

function isGiftCards(template: string): boolean {
  return template.startsWith('/gift-cards');
}

interface Api {
  call(method: string, path: string, body?: unknown, server?: string): Promise<{ status: number; body: Json | undefined }>;
}

function api(config: ConformanceConfig): Api {
  return {
    async call(method, path, body, server = config.server) {
      const answer = await call(server.replace(/\/$/, '') + path, config.apiKey, method, body);
      // A body that is not JSON (or none) is `undefined` here.
      return { status: answer.status, body: typeof answer.body === 'string' ? undefined : (answer.body as Json | undefined) };
    },
  };
}

function firstRequestExample(state: HookState, method: string, template: string): JsonObject {
  const info = state.validator.operation(method, template);
  const rb = resolveRef(state, info?.operation.requestBody);
  const content = rb && isObject(rb.content) ? rb.content : undefined;
  const media = content && isObject(content['application/json']) ? content['application/json'] : undefined;
  const examples = media && isObject(media.examples) ? Object.values(media.examples) : [];
  const first = examples.length ? resolveRef(state, examples[0] as Json) : undefined;
  return first && isObject(first.value) ? structuredClone(first.value) : {};
}

function codeOf(data: Json | undefined, ...fields: string[]): string | undefined {
  const d = isObject(data) ? data.data : undefined;
  // From a list, prefer an active item (a webhook endpoint must be active for customer creation).
  const item = Array.isArray(d) ? (d.find((x) => isObject(x) && x.is_active !== false) ?? d[0]) : d;
  if (!isObject(item)) return undefined;
  for (const f of fields) if (typeof item[f] === 'string') return item[f] as string;
  return undefined;
}

/** Replaces reference fields of a request body with the codes set up; returns the keys it could not fill. */
function substituteBody(state: HookState, body: Json | undefined): string[] {
  const missing: string[] = [];
  const walk = (node: Json | undefined) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isObject(node)) {
      for (const [k, v] of Object.entries(node)) {
        const key = BODY_REFERENCES[k];
        if (key && typeof v === 'string') {
          const code = state.resources.get(key);
          if (code) node[k] = code;
          else missing.push(key);
        } else walk(v);
      }
    }
  };
  walk(body);
  return missing;
}

/** The values a closed-set schema allows: its `enum`, `const`, or those of its `oneOf`/`anyOf` branches. */
function enumValues(state: HookState, node: Json | undefined): string[] {
  const schema = resolveRef(state, node);
  if (!schema) return [];
  if (Array.isArray(schema.enum)) return schema.enum.filter((v): v is string => typeof v === 'string');
  if (typeof schema.const === 'string') return [schema.const];
  const branches = [...(Array.isArray(schema.oneOf) ? schema.oneOf : []), ...(Array.isArray(schema.anyOf) ? schema.anyOf : [])];
  return branches.flatMap((b) => enumValues(state, b));
}

/** Creates (or finds) the resources the requests need, in dependency order. */
export async function setUp(state: HookState, log: (line: string) => void = (line) => state.setupLog.push(line)): Promise<void> {
  const { config } = state;
  const client = api(config);
  const has = (method: string, template: string) => state.validator.operation(method, template) !== undefined;
  const create = async (key: string, method: string, template: string, idFields: string[], prepare?: (b: JsonObject) => void) => {
    if (!has(method, template)) return false;
    // The path parameters of the template are resources set up before (the card of a top-up ...).
    const params = new Map<string, string>();
    for (const [, name] of template.matchAll(/\{([^}]+)\}/g)) {
      const code = state.resources.get(resourceKey(template, name!));
      if (!code) {
        state.missing.set(key, `creating a ${label(key)} needs a ${label(resourceKey(template, name!))}, which could not be set up`);
        return false;
      }
      params.set(name!, code);
    }
    const body = firstRequestExample(state, method, template);
    const missing = substituteBody(state, body);
    if (missing.length) {
      state.missing.set(key, `creating a ${label(key)} needs a ${missing.map(label).join(', ')}, which could not be set up`);
      return false;
    }
    prepare?.(body);
    try {
      const res = await client.call(method, fillTemplate(template, params), body, isGiftCards(template) ? config.altServer : undefined);
      const code = res.status >= 200 && res.status < 300 ? codeOf(res.body, ...idFields) : undefined;
      if (code) {
        state.resources.set(key, code);
        log(`set-up: ${method} ${template} -> ${label(key)} ${code}`);
        return true;
      }
      const err = isObject(res.body) && isObject(res.body.error) ? ` ${String(res.body.error.code)}` : '';
      state.missing.set(key, `${method} ${template} answered ${res.status}${err}`);
    } catch (e) {
      state.missing.set(key, `${method} ${template} failed: ${(e as Error).message}`);
    }
    return false;
  };
  const find = async (key: string, listTemplate: string, idFields: string[]) => {
    if (state.resources.has(key)) return;
    if (!has('GET', listTemplate)) {
      if (!state.missing.has(key)) state.missing.set(key, `GET ${listTemplate} is not in the contract, so none can be found`);
      return;
    }
    if (isGiftCards(listTemplate) && !config.altServer) {
      state.missing.set(key, 'gift card operations are served at {alt_base_url}: pass --alt-server <url>');
      return;
    }
    try {
      const res = await client.call('GET', listTemplate, undefined, isGiftCards(listTemplate) ? config.altServer : undefined);
      const code = res.status === 200 ? codeOf(res.body, ...idFields) : undefined;
      if (code) {
        state.resources.set(key, code);
        state.missing.delete(key);
        log(`set-up: GET ${listTemplate} -> existing ${label(key)} ${code}`);
      } else if (!state.missing.has(key)) {
        state.missing.set(key, `no ${label(key)} exists (GET ${listTemplate} answered ${res.status} with none) and the suite does not create one`);
      } else {
        state.missing.set(key, `${state.missing.get(key)}; and GET ${listTemplate} lists none`);
      }
    } catch (e) {
      state.missing.set(key, `GET ${listTemplate} failed: ${(e as Error).message}`);
    }
  };

  /**
   * Adopts the record of the contract's example (the path parameter examples, `GET /cards/7c9e6679-…`) when
   * the server holds it, as a sandbox started with `--seed examples` does: the example-driven requests then
   * find their resources as they are.
   */
  const adopt = async (key: string, template: string) => {
    if (state.resources.has(key) || !has('GET', template)) return;
    if (isGiftCards(template) && !config.altServer) return;
    const params = new Map<string, string>();
    for (const [, name] of template.matchAll(/\{([^}]+)\}/g)) {
      const value = pathExample(state, 'GET', template, name!);
      if (value === undefined) return;
      params.set(name!, value);
    }
    const code = params.get([...params.keys()].at(-1)!);
    // A nested record (a top-up) is adopted only with its parent (the example card).
    for (const [name, value] of params) if (value !== code && state.resources.get(resourceKey(template, name)) !== value) return;
    try {
      const res = await client.call('GET', fillTemplate(template, params), undefined, isGiftCards(template) ? config.altServer : undefined);
      if (res.status !== 200 || !code) return;
      state.resources.set(key, code);
      state.missing.delete(key);
      log(`set-up: GET ${template} -> the contract's example ${label(key)} ${code} exists`);
    } catch {
      // not there: created or found below
    }
  };
  /** Waits (up to 15 s) until a record created asynchronously leaves `pending` (a card being issued). */
  const settle = async (key: string, template: string) => {
    const code = state.resources.get(key);
    if (!code) return;
    const params = new Map([[[...template.matchAll(/\{([^}]+)\}/g)][0]![1]!, code]]);
    for (let waited = 0; waited < 15_000; waited += 250) {
      const res = await client.call('GET', fillTemplate(template, params)).catch(() => undefined);
      const status = res && isObject(res.body) && isObject(res.body.data) ? res.body.data.status : undefined;
      if (status !== 'pending') return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    log(`set-up: ${label(key)} ${code} is still pending after 15 s`);
  };

  /** A new customer with a KYC link open, for the set-up `key`; its code, or undefined (the reason recorded). */
  const customerWithKycLink = async (key: string): Promise<string | undefined> => {
    const created = await create(key, 'POST', '/customers', ['customer_code', 'code'], (b) => {
      if (typeof b.external_reference === 'string') b.external_reference = `conformance-${randomUUID().slice(0, 8)}`;
    });
    const code = state.resources.get(key);
    if (!created || !code) return undefined;
    state.resources.delete(key);
    const link = await client.call('POST', `/kyc/${encodeURIComponent(code)}/link`, firstRequestExample(state, 'POST', '/kyc/{customerCode}/link')).catch(() => undefined);
    if (link?.status !== 200) {
      state.missing.set(key, `POST /kyc/{customerCode}/link answered ${link?.status ?? 'nothing'}`);
      return undefined;
    }
    return code;
  };

  /**
   * A customer at the `verified` level with its proof of address open: a new customer, a KYC link, and then
   * the verification outcome. The suite cannot choose it; a server that completes KYC by itself (the
   * sandbox, by default) approves it within seconds.
   */
  const kycVerifiedCustomer = async () => {
    const key = 'KYC-verified customer';
    const code = await customerWithKycLink(key);
    if (!code) return;
    for (let waited = 0; waited <= 15_000; waited += 250) {
      const res = await client.call('GET', `/customers/${encodeURIComponent(code)}`).catch(() => undefined);
      const level = res && isObject(res.body) && isObject(res.body.data) ? res.body.data.verification_level : undefined;
      if (level === 'verified') {
        state.resources.set(key, code);
        log(`set-up: POST /kyc/{customerCode}/link -> ${label(key)} ${code} (verified)`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    state.missing.set(key, `the KYC of customer ${code} was not approved within 15 s of its link (the person completes it on the provider's page)`);
  };

  /**
   * A customer restricted for an identity mismatch (for synchronize): a new customer, a KYC link, and the
   * outcome `approved_identity_mismatch` chosen through the simulation API (--simulation-url).
   */
  const identityMismatchedCustomer = async () => {
    const key = 'identity-mismatched customer';
    const code = await customerWithKycLink(key);
    if (!code) return;
    const customer = `/${encodeURIComponent(code)}`;
    const outcome = await simulate(config, 'POST', `/kyc${customer}/outcome`, { outcome: 'approved_identity_mismatch' }).catch((e: Error) => ({ status: 0, body: e.message }));
    const res = await client.call('GET', `/customers${customer}`).catch(() => undefined);
    const status = res && isObject(res.body) && isObject(res.body.data) ? res.body.data.status : undefined;
    if (outcome.status !== 200 || status !== 'restricted') {
      state.missing.set(key, `the KYC outcome approved_identity_mismatch (POST ${config.simulationUrl}/kyc/{customerCode}/outcome) answered ${outcome.status}; the customer is ${String(status)}`);
      return;
    }
    state.resources.set(key, code);
    log(`set-up: POST ${config.simulationUrl}/kyc/{customerCode}/outcome approved_identity_mismatch -> ${label(key)} ${code}`);
  };

  /** A documented balance type that the account of --no-product-key does not hold (for the balance 404s). */
  const unheldBalanceType = async () => {
    const key = 'unheld balance type';
    const def = parameters(state, 'GET', '/balance/{type}').find((p) => p.name === 'type' && p.in === 'path');
    const documented = enumValues(state, def?.schema);
    if (!documented.length || !has('GET', '/balance')) return;
    const listed = await call(`${config.server.replace(/\/$/, '')}/balance`, config.noProductKey!).catch(() => undefined);
    const held = listed && Array.isArray(dataOf(listed)) ? (dataOf(listed) as { type?: unknown }[]).map((b) => b.type) : undefined;
    const type = held ? documented.find((t) => typeof t === 'string' && !held.includes(t)) : undefined;
    if (typeof type !== 'string') {
      state.missing.set(key, held ? 'the account of --no-product-key holds every documented balance type' : `GET /balance with --no-product-key answered ${listed?.status ?? 'nothing'}`);
      return;
    }
    state.resources.set(key, type);
    log(`set-up: GET /balance with --no-product-key -> ${label(key)} ${type}`);
  };

  // At least one active webhook endpoint must exist before customers can be created.
  await create('/webhooks/{code}', 'POST', '/webhooks', ['code'], (b) => {
    if (config.webhookUrl) b.url = config.webhookUrl;
  });
  await adopt('/webhooks/{code}', '/webhooks/{code}');
  await find('/webhooks/{code}', '/webhooks', ['code']);
  await adopt('customer', '/customers/{customerCode}');
  if (!state.resources.has('customer')) {
    await create('customer', 'POST', '/customers', ['customer_code', 'code'], (b) => {
      if (typeof b.external_reference === 'string') b.external_reference = `conformance-${randomUUID().slice(0, 8)}`;
    });
  }
  await find('customer', '/customers', ['customer_code', 'code']);
  await create('unverified customer', 'POST', '/customers', ['customer_code', 'code'], (b) => {
    if (typeof b.external_reference === 'string') b.external_reference = `conformance-${randomUUID().slice(0, 8)}`;
  });
  await kycVerifiedCustomer();
  await adopt('/cards/{code}', '/cards/{code}');
  if (!state.resources.has('/cards/{code}')) {
    await create('/cards/{code}', 'POST', '/cards', ['code']);
    await settle('/cards/{code}', '/cards/{code}');
  }
  await find('/cards/{code}', '/cards', ['code']);
  await adopt('/cards/{code}/topups/{topupId}', '/cards/{code}/topups/{topupId}');
  if (!state.resources.has('/cards/{code}/topups/{topupId}')) await create('/cards/{code}/topups/{topupId}', 'POST', '/cards/{code}/topup', ['topup_id']);
  await adopt('/payouts/beneficiaries/{code}', '/payouts/beneficiaries/{code}');
  await find('/payouts/beneficiaries/{code}', '/payouts/beneficiaries', ['code']);
  if (state.resources.has('/payouts/beneficiaries/{code}')) await create('quote', 'POST', '/payouts/quotes', ['code', 'quote_code']);
  else state.missing.set('quote', 'a payout quote needs a beneficiary, which could not be set up');
  for (const [key, list, ids] of [
    ['/virtual-accounts/{code}', '/virtual-accounts', ['code']],
    ['/gift-cards/orders/{code}', '/gift-cards/orders', ['code']],
    ['/gift-cards/products/{productId}', '/gift-cards/products', ['product_id']],
    ['/payouts/{code}', '/payouts', ['code']],
    ['/events/{id}', '/events', ['id']],
  ] as const) {
    await adopt(key, key);
    await find(key, list, [...ids]);
  }
  if (config.noProductKey) await unheldBalanceType();
  if (config.simulationUrl) {
    await identityMismatchedCustomer();
    // 400 INSUFFICIENT_BALANCE of POST /payouts confirms a quote of its own (the 200 confirms the first one).
    if (state.resources.has('/payouts/beneficiaries/{code}')) {
      const first = state.resources.get('quote');
      state.resources.delete('quote');
      await create('spare quote', 'POST', '/payouts/quotes', ['code', 'quote_code']);
      if (first) state.resources.set('quote', first);
    }
  }
  for (const [key, reason] of state.missing) log(`set-up: no ${label(key)}: ${reason}`);
}

// ---------------------------------------------------------------------------------------------------------
// Planning each transaction.

function skip(t: DreddTransaction, reason: string): void {
  t.skip = true;
  t.conformance!.skipReason = reason;
}

/** Sends a transaction to the gift card base address ({alt_base_url}) instead of --server. */
function sendToAltServer(t: DreddTransaction, altServer: string): void {
  const url = new URL(altServer);
  const prefix = url.pathname.replace(/\/$/, '');
  t.protocol = url.protocol;
  t.host = url.hostname;
  t.port = url.port || (url.protocol === 'https:' ? '443' : '80');
  t.fullPath = prefix + t.request.uri;
}

function planMock(state: HookState, transactions: DreddTransaction[]): void {
  const out: DreddTransaction[] = [];
  for (const t of transactions) {
    const { method } = t.request;
    const path = t.origin.resourceName;
    const status = t.expected.statusCode;
    // Gift card operations go to --alt-server when given (the 421 wrong_api_host stays on --server).
    if (isGiftCards(path) && state.config.altServer && status !== '421') sendToAltServer(t, state.config.altServer);
    const examples = state.validator.examples(method, path, status);
    const variants = examples.length ? examples : [{ name: undefined, value: undefined }];
    const copies = variants.map((ex, i) => (i === 0 ? t : clone(t, ex.name!)));
    if (variants.length > 1) {
      t.name = `${t.name} > ${variants[0]!.name}`;
      t.id = `${t.id} ${variants[0]!.name}`;
    }
    variants.forEach((ex, i) => {
      const v = copies[i]!;
      v.conformance = { path, status, example: ex.name };
      const codes = state.validator.errorCodes(method, path, status);
      if (ex.name && codes.includes(ex.name)) v.conformance.expectCode = ex.name;
      setHeader(v, 'Authorization', `Bearer ${state.config.apiKey}`);
      setHeader(v, 'Prefer', ex.name ? `code=${status}, example=${ex.name}` : `code=${status}`);
      if (ex.value !== undefined) v.expected.body = JSON.stringify(ex.value);
      out.push(v);
    });
  }
  transactions.splice(0, transactions.length, ...out);
}

/**
 * A path parameter that names a resource: a `code`/`customerCode`, a `...Id` (`topupId`, `productId`), or a
 * `format: uuid` string. Others (the balance `{type}`, a closed set) keep the value of the example.
 */
function isReferenceParam(state: HookState, method: string, path: string, name: string): boolean {
  if (/code$/i.test(name) || /Id$/.test(name)) return true;
  const def = parameters(state, method, path).find((p) => p.name === name && p.in === 'path');
  const schema = resolveRef(state, def?.schema);
  return schema?.format === 'uuid' || isEventId(schema);
}

/** An event id parameter: `evt_<uuid>`. */
const isEventId = (schema: JsonObject | undefined) => typeof schema?.pattern === 'string' && schema.pattern.startsWith('^evt_');

/** The contract's example of a path parameter (`7c9e6679-…` for a card's `{code}`). */
function pathExample(state: HookState, method: string, path: string, name: string): string | undefined {
  const def = parameters(state, method, path).find((p) => p.name === name && p.in === 'path');
  const schema = resolveRef(state, def?.schema);
  const example = def?.example ?? (Array.isArray(schema?.examples) ? schema.examples[0] : schema?.example);
  return typeof example === 'string' ? example : undefined;
}

/** A well-formed reference that names no resource: a random uuid (`evt_`-prefixed for an event id), or letters and digits. */
function unknownReference(state: HookState, method: string, path: string, name: string): string {
  const def = parameters(state, method, path).find((p) => p.name === name && p.in === 'path');
  const schema = resolveRef(state, def?.schema);
  if (isEventId(schema)) return `evt_${randomUUID()}`;
  // A uuid, or letters and digits for an id that is not one.
  return schema?.format === 'uuid' ? randomUUID() : `unknown_${randomUUID().replace(/-/g, '')}`;
}

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
      skip(t, `the request body needs a ${missing.map(label).join(', ')}: ${missing.map((k) => state.missing.get(k) ?? 'not set up').join('; ')}`);
      return false;
    }
    if (isObject(body) && t.request.method === 'POST' && path === '/customers' && typeof body.external_reference === 'string') {
      body.external_reference = `conformance-${randomUUID().slice(0, 8)}`;
    }
    // The url of an endpoint (created or changed) must answer the server's ping: use --webhook-url.
    if (isObject(body) && /^\/webhooks(\/\{code\})?$/.test(path) && state.config.webhookUrl && typeof body.url === 'string') body.url = state.config.webhookUrl;
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

/** The error code each simulated fault answers. */
const FAULT_CODES: Record<string, string> = { '500': 'INTERNAL_ERROR', '502': 'OPERATION_FAILED' };

/** Two base URLs that are the same address (then no gift card request can be sent to the wrong one). */
function sameBase(a: string, b: string): boolean {
  const norm = (u: string) => new URL(u).href.replace(/\/+$/, '');
  return norm(a) === norm(b);
}

/** Sets one path parameter of a transaction's request. */
function setPathParam(t: DreddTransaction, path: string, name: string, value: string): void {
  const { pathname, query } = splitUri(t.request.uri);
  const params = pathParams(path, pathname);
  params.set(name, value);
  setUri(t, fillTemplate(path, params), query);
}

/** The request that spends a rate-limited key's window: the first GET without path parameters (not a gift card one). */
function probePath(state: HookState): string {
  return state.validator.operations().find((o) => o.method === 'GET' && !o.path.includes('{') && !isGiftCards(o.path))?.path ?? '/';
}

function planReal(state: HookState, transactions: DreddTransaction[]): void {
  const out: DreddTransaction[] = [];
  const { config } = state;
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
        wrongKey.conformance = { path, status, example: 'AUTHENTICATION_FAILED', expectCode: 'AUTHENTICATION_FAILED', skipReason: t.conformance.skipReason };
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
      if (params.length) skip(t, 'the only path parameter is a closed set: an unknown value is a 422, and which documented value the account lacks cannot be known');
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
    } else if ((status === '500' || status === '502') && config.simulationUrl && operationId && codes.includes(FAULT_CODES[status]!)) {
      // A simulated fault of the sandbox, armed for this operation just before the request.
      substituteResources(state, t, path, { lenient: true });
      t.conformance.expectCode = FAULT_CODES[status];
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
      t.conformance.arrange = path === '/cards/{code}/withdraw'
        ? { kind: 'card-balance', cardPath: splitUri(t.request.uri).pathname.replace(/\/withdraw$/, '') }
        : { kind: 'drain' };
    } else {
      skip(t, UNPROVOKABLE[status] ?? `status ${status} cannot be provoked from outside`);
    }
  }
  // Destructive operations last, so the customer, the card and the beneficiary stay usable for the others.
  const last = (t: DreddTransaction) =>
    t.conformance?.status.startsWith('2') && (/\/(terminate|deactivate)$/.test(t.conformance.path) || t.request.method === 'DELETE') ? 1 : 0;
  out.sort((a, b) => last(a) - last(b));
  transactions.splice(0, transactions.length, ...out);
}

export async function beforeAll(state: HookState, transactions: DreddTransaction[]): Promise<void> {
  if (state.config.mode === 'mock') {
    planMock(state, transactions);
    return;
  }
  await setUp(state);
  planReal(state, transactions);
}

/** Real mode: brings about the state the transaction needs just before it is sent (arrange.ts). */
export async function beforeEach(state: HookState, t: DreddTransaction): Promise<void> {
  const c = t.conformance;
  if (t.skip || !c?.arrange) return;
  try {
    c.arrangeProblem = await arrange(state.config, t, c.arrange);
  } catch (error) {
    c.arrangeProblem = `set-up for this transaction failed: ${(error as Error).message}`;
  }
}

/** Real mode: undoes what beforeEach brought about (balances set back, a fault not taken disarmed). */
export async function afterEachRestore(t: DreddTransaction): Promise<void> {
  await restore(t).catch(() => undefined);
}

/** Normalises the content type and hands the body check to Ajv (Gavel would only compare with the example). */
export function beforeEachValidation(state: HookState, t: DreddTransaction): void {
  if (!t.real) return;
  // Gavel wants every documented header; the contract requires only those marked `required` (checked,
  // with the values of the others, in afterEach).
  const c = t.conformance ?? { path: t.origin.resourceName, status: t.expected.statusCode };
  const documented = state.validator.documentedHeaders(t.request.method, c.path, c.status);
  for (const name of Object.keys(t.expected.headers)) {
    const required = [...documented].find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
    if (name.toLowerCase() !== 'content-type' && required !== true) delete t.expected.headers[name];
  }
  for (const [key, value] of Object.entries(t.real.headers)) {
    if (key.toLowerCase() === 'content-type' && typeof value === 'string') t.real.headers[key] = normaliseContentType(value);
  }
  // Gavel compares the body with the first example's keys, which would fail valid bodies that differ from
  // it; the strict schema check in afterEach replaces it. An empty JSON Schema accepts any JSON body.
  delete t.expected.body;
  t.expected.bodySchema = '{"$schema": "http://json-schema.org/draft-07/schema#"}';
}

export function afterEach(state: HookState, t: DreddTransaction): void {
  const c = t.conformance ?? { path: t.origin.resourceName, status: t.expected.statusCode };
  const info = state.validator.operation(t.request.method, c.path);
  const record: TransactionRecord = {
    name: t.name,
    method: t.request.method,
    path: c.path,
    operationId: info?.operationId,
    status: c.status,
    example: c.example,
    outcome: 'passed',
  };
  state.records.push(record);
  if (t.skip) {
    record.outcome = 'skipped';
    record.message = c.skipReason ?? t.errors?.map((e) => e.message).join('; ') ?? 'skipped';
    return;
  }
  if (!t.real) {
    record.outcome = 'failed';
    record.message = `no response from ${t.protocol}//${t.host}:${t.port}${t.fullPath}`;
    return;
  }
  record.actualStatus = t.real.statusCode;
  const problems: string[] = [];
  if (String(t.real.statusCode) !== c.status) problems.push(`status: expected ${c.status}, got ${t.real.statusCode}`);
  const contentType = Object.entries(t.real.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  const errors = [
    ...state.validator.validate(t.request.method, c.path, t.real.statusCode, t.real.body, contentType),
    ...state.validator.validateHeaders(t.request.method, c.path, t.real.statusCode, t.real.headers),
  ];
  if (errors.length === 0) {
    // Responses are open: an undocumented field is a warning, not a failure.
    const undocumented = state.validator.undocumented(t.request.method, c.path, t.real.statusCode, t.real.body, contentType);
    if (undocumented.length) record.undocumented = undocumented;
  }
  if (errors.length) problems.push(formatErrors(errors));
  else if (c.expectCode && String(t.real.statusCode) === c.status) {
    const got = (parseBody(t.real.body) as { error?: { code?: string } } | undefined)?.error?.code;
    if (got !== c.expectCode) problems.push(`/error/code: expected '${c.expectCode}' for this request, got '${got}'`);
  }
  if (problems.length === 0 && t.test && t.test.valid === false && t.test.message) problems.push(t.test.message.trim());
  if (problems.length && c.arrangeProblem) problems.push(c.arrangeProblem);
  if (problems.length) {
    record.outcome = 'failed';
    record.message = problems.join('\n');
    t.fail = record.message;
    if (t.test) t.test.message = `${t.test.message ? `${t.test.message}\n` : ''}${record.message}`;
  }
}

export function afterAll(state: HookState): void {
  writeFileSync(
    state.config.results,
    JSON.stringify({ mode: state.config.mode, setup: state.setupLog, records: state.records }, null, 1),
  );
}

