// Real mode: before the first transaction, the resources the requests need (webhook endpoint, customers in
// the states KYC and proof of address need, card, top-up, beneficiary, quote ...), created, found in their
// lists, or adopted from the contract's examples when the server holds them (a sandbox seeded with them).
import { randomUUID } from 'node:crypto';
import { isObject, type JsonObject } from '../lib/pointer.ts';
import { enumValues, firstRequestExample, isGiftCards, parameters, pathExample } from './contract.ts';
import { api, call, dataOf, simulate } from './http.ts';
import { codeOf, label, resourceKey, substituteBody } from './resources.ts';
import { fillTemplate } from './transaction.ts';
import type { HookState } from './types.ts';

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

