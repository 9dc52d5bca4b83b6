// Real mode: which resource a path parameter or a body field refers to, the resources' names in the report,
// and the request body a real server gets: the codes set up put in, and the run's id in the fields that name a
// record. The resources are those of the set-up graph
// (src/setup/graph.ts), plus a few records of the suite's own in the states some operations need.
import { SETUP_GRAPH, type ResourceKey } from '../../src/setup/graph.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import { isObject, type Json, type JsonObject } from '../lib/pointer.ts';
import type { ConformanceConfig, HookState } from './types.ts';

/** Records the suite sets up beside the graph's own, and what the report calls them. */
export const SUITE_RECORDS = {
  'unverified customer': 'customer whose verification is open',
  'KYC-verified customer': 'customer whose KYC is approved and proof of address open',
  'identity-mismatched customer': 'customer restricted for an identity mismatch',
  'spare quote': 'second payout quote',
  'unheld balance type': 'balance type that --no-product-key does not hold',
} as const;

/** A resource of the graph, or a record of the suite's own (or, for a path the graph does not know, the path). */
export type ResourceName = ResourceKey | keyof typeof SUITE_RECORDS | (string & {});

export const label = (key: ResourceName): string =>
  (SUITE_RECORDS as Record<string, string>)[key] ??
  (SETUP_GRAPH.resources as Record<string, { label: string } | undefined>)[key]?.label ??
  key;

/** The graph's resource read at a path template (`/cards/{code}` -> `card`), if any. */
export function resourceAt(template: string): ResourceKey | undefined {
  return (Object.keys(SETUP_GRAPH.resources) as ResourceKey[]).find((key) => SETUP_GRAPH.resources[key].read === template);
}

/** The resource a path parameter names: a customer for every `{customerCode}`, else the one read at the template up to it. */
export function resourceKey(template: string, param: string): ResourceName {
  // KYC and proof of address need a customer whose verification is still open (not the fully verified
  // example customer of a seeded sandbox): the suite creates one for them.
  // Proof of address needs one whose KYC is approved and whose proof of address is still open.
  if (param === 'customerCode')
    return template.startsWith('/kyc/') ? 'unverified customer' : template.startsWith('/poa/') ? 'KYC-verified customer' : 'customer';
  const segments = template.split('/');
  const prefix = segments.slice(0, segments.indexOf(`{${param}}`) + 1).join('/');
  return resourceAt(prefix) ?? prefix;
}

/** The resource a body field names (`customer_code` -> `customer`), from the graph's REFERENCES. */
export const BODY_REFERENCES: Record<string, ResourceKey> = SETUP_GRAPH.references;

/** Replaces reference fields of a request body with the codes set up; returns the resources it could not fill. */
export function substituteBody(state: HookState, body: Json | undefined): ResourceKey[] {
  const missing: ResourceKey[] = [];
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

/** An id for a run, carried by the records it creates: `conformance-20261128T041233-a1f3`. */
export function newRunId(now = new Date()): string {
  return `conformance-${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomBytes(2).toString('hex')}`;
}

/** A reference unique to this request within the run: the run's id and a short random part. */
const runReference = (config: ConformanceConfig) => `${config.runId ?? 'conformance'}-${randomUUID().slice(0, 8)}`;

/**
 * What a request body of the examples needs beside the codes: the run's id in the fields that name a record
 * (a customer's `external_reference`, an endpoint's `description`, a card's or a payout's `reference`), so that
 * the run's records are its own and can be told apart on a server that keeps every run's; and the receiver's
 * url for an endpoint.
 */
export function adjustBody(config: ConformanceConfig, method: string, template: string, body: JsonObject): void {
  if (method === 'POST' && template === '/customers' && typeof body.external_reference === 'string')
    body.external_reference = runReference(config);
  if (method === 'POST' && (template === '/cards' || template === '/payouts/quotes') && typeof body.reference === 'string')
    body.reference = runReference(config);
  if (/^\/webhooks(\/\{code\})?$/.test(template)) {
    if (typeof body.description === 'string' || (method === 'POST' && config.runId))
      body.description = `Conformance run ${config.runId ?? ''}`.trim();
    // The url of an endpoint (created or changed) must answer the server's ping: use --webhook-url.
    if (config.webhookUrl && typeof body.url === 'string') body.url = config.webhookUrl;
  }
}
