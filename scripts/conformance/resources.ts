// Real mode: which resource a path parameter or a body field refers to, the resources' names in the report,
// and putting the codes set up into a request body.
import { isObject, type Json } from '../lib/pointer.ts';
import type { HookState } from './types.ts';

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
export const BODY_REFERENCES: Record<string, string> = {
  customer_code: 'customer',
  card_code: '/cards/{code}',
  beneficiary_code: '/payouts/beneficiaries/{code}',
  quote_code: 'quote',
  webhook_code: '/webhooks/{code}',
  endpoint_code: '/webhooks/{code}',
  product_id: '/gift-cards/products/{productId}',
};

/** How the report names each resource. */
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
export const label = (key: string) => RESOURCE_LABEL[key] ?? key;

/** The code of a created record (or of the first active item of a list): the first of `fields` it has. */
export function codeOf(data: Json | undefined, ...fields: string[]): string | undefined {
  const d = isObject(data) ? data.data : undefined;
  // From a list, prefer an active item (a webhook endpoint must be active for customer creation).
  const item = Array.isArray(d) ? (d.find((x) => isObject(x) && x.is_active !== false) ?? d[0]) : d;
  if (!isObject(item)) return undefined;
  for (const f of fields) if (typeof item[f] === 'string') return item[f] as string;
  return undefined;
}

/** Replaces reference fields of a request body with the codes set up; returns the keys it could not fill. */
export function substituteBody(state: HookState, body: Json | undefined): string[] {
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
