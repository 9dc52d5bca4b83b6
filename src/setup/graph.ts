// The resources of the partner API and what each needs before it can exist: one dependency graph, read by
// everything that sets up state through the API (the sandbox's `--seed examples`, the conformance suite, the
// tests). Each node says how the resource is brought about: the operation that creates it (its body is the
// contract's request example, with the references to other resources filled in), or the later state of
// another resource and the steps that lead there (a link opened, then the provider's outcome).
//
//   webhookEndpoint ─(customers need an active one)─> customer ─> verifiedCustomer ─> fullCustomer
//                                                       │  └───> restrictedCustomer
//                                                       ├─> card ─> cardTopup
//                                                       ├─> beneficiary ─> payoutQuote ─> payout
//                                                       ├─> giftCardOrder <─ giftCardProduct
//                                                       └─ (fullCustomer) ─> virtualAccount
//
// Paths and fields are the contract's; the outcome bodies are typed by the simulation API's contract
// (generated/sandbox.d.ts) and the states waited for by the partner API's (generated/openapi.d.ts), so a value
// they do not hold fails the typecheck.
import type { components } from '../../generated/openapi.js';
import type { paths as SimulationPaths } from '../../generated/sandbox.js';

type Schemas = components['schemas'];

export type ResourceKey =
  | 'webhookEndpoint'
  | 'customer'
  | 'verifiedCustomer'
  | 'fullCustomer'
  | 'restrictedCustomer'
  | 'card'
  | 'cardTopup'
  | 'beneficiary'
  | 'payoutQuote'
  | 'payout'
  | 'virtualAccount'
  | 'giftCardProduct'
  | 'giftCardOrder'
  | 'event';

/** A field of a record and the value it has, or must not have, once the resource is in its state. */
export type Condition = { field: string; equals: string } | { field: string; not: string };

type OutcomeBody<P extends keyof SimulationPaths> = SimulationPaths[P] extends {
  post: { requestBody?: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

/** One step towards a resource's state, run on its code (`{customerCode}` and the like are that code). */
export type Step =
  /** A partner API operation; its body is its first request example. */
  | { call: { method: 'POST'; path: string } }
  /**
   * An outcome only the provider decides (a KYC decision, a document review): chosen through the sandbox's
   * simulation API where there is one; elsewhere the server decides it by itself (a sandbox's automatic
   * outcome) unless `simulationOnly`. Either way the resource is read back until `until` holds.
   */
  | { outcome: Outcome };

export type Outcome = {
  [P in keyof SimulationPaths]: OutcomeBody<P> extends never
    ? never
    : { path: P; body: OutcomeBody<P>; until: Condition; simulationOnly?: boolean };
}[keyof SimulationPaths];

export interface ResourceNode {
  /** What the report and the errors call it. */
  label: string;
  /** The resource whose later state this is (the same record, the same code). */
  from?: ResourceKey;
  /** Must exist first though nothing names it: any existing one will do (customers need an active webhook endpoint). */
  after?: ResourceKey[];
  /** The body fields and path parameters of its create operation that name another resource, and which. */
  refs?: Record<string, ResourceKey>;
  /** The operation that creates it, and the fields of its answer that hold the new code (the first one present). */
  create?: { method: 'POST'; path: string; id: string[] };
  /** The steps from `from`'s state to this one. */
  steps?: Step[];
  /** Made asynchronously: the state it is usable in (waited for, not required). */
  ready?: Condition;
  /** Where one is read: its code is the last path parameter. */
  read?: string;
  /** Where they are listed, and the field of an item that holds the code. */
  list?: { path: string; id: string[] };
}

/**
 * Body fields and path parameters that name a resource, and which one (the same everywhere in the contract):
 * what a request's reference fields are filled with.
 */
export const REFERENCES: Record<string, ResourceKey> = {
  customer_code: 'customer',
  customerCode: 'customer',
  card_code: 'card',
  beneficiary_code: 'beneficiary',
  quote_code: 'payoutQuote',
  webhook_code: 'webhookEndpoint',
  endpoint_code: 'webhookEndpoint',
  product_id: 'giftCardProduct',
};

const customerLevel = (equals: Schemas['VerificationLevel']): Condition => ({ field: 'verification_level', equals });
const customerStatus = (equals: Schemas['CustomerStatus']): Condition => ({ field: 'status', equals });
/** Out of `pending`: made (or failed) asynchronously, and now settled. */
const settled = (pending: Schemas['CardTopUpStatus'] & Schemas['GiftCardOrder']['status']): Condition => ({
  field: 'status',
  not: pending,
});

/** The graph: every resource, and what the reference fields of requests name. */
export interface SetupGraph {
  resources: Record<ResourceKey, ResourceNode>;
  references: Record<string, ResourceKey>;
}

const RESOURCES: Record<ResourceKey, ResourceNode> = {
  webhookEndpoint: {
    label: 'webhook endpoint',
    create: { method: 'POST', path: '/webhooks', id: ['code'] },
    read: '/webhooks/{code}',
    list: { path: '/webhooks', id: ['code'] },
  },
  customer: {
    label: 'customer',
    // At least one active webhook endpoint must exist before customers can be created.
    after: ['webhookEndpoint'],
    create: { method: 'POST', path: '/customers', id: ['customer_code', 'code'] },
    read: '/customers/{customerCode}',
    list: { path: '/customers', id: ['customer_code', 'code'] },
  },
  verifiedCustomer: {
    label: 'customer whose KYC is approved',
    from: 'customer',
    steps: [
      { call: { method: 'POST', path: '/kyc/{customerCode}/link' } },
      { outcome: { path: '/kyc/{customerCode}/outcome', body: { outcome: 'approved' }, until: customerLevel('verified') } },
    ],
    read: '/customers/{customerCode}',
  },
  fullCustomer: {
    label: 'customer whose proof of address is approved',
    from: 'verifiedCustomer',
    steps: [
      { call: { method: 'POST', path: '/poa/{customerCode}/document' } },
      { outcome: { path: '/poa/{customerCode}/outcome', body: { outcome: 'approved' }, until: customerLevel('full') } },
    ],
    read: '/customers/{customerCode}',
  },
  restrictedCustomer: {
    label: 'customer restricted for an identity mismatch',
    from: 'customer',
    steps: [
      { call: { method: 'POST', path: '/kyc/{customerCode}/link' } },
      {
        outcome: {
          path: '/kyc/{customerCode}/outcome',
          body: { outcome: 'approved_identity_mismatch' },
          until: customerStatus('restricted'),
          simulationOnly: true,
        },
      },
    ],
    read: '/customers/{customerCode}',
  },
  card: {
    label: 'card',
    refs: { customer_code: 'customer' },
    create: { method: 'POST', path: '/cards', id: ['code'] },
    ready: settled('pending'),
    read: '/cards/{code}',
    list: { path: '/cards', id: ['code'] },
  },
  cardTopup: {
    label: 'card top-up',
    refs: { code: 'card' },
    create: { method: 'POST', path: '/cards/{code}/topup', id: ['topup_id'] },
    ready: settled('pending'),
    read: '/cards/{code}/topups/{topupId}',
  },
  beneficiary: {
    label: 'beneficiary',
    refs: { customer_code: 'customer' },
    create: { method: 'POST', path: '/payouts/beneficiaries', id: ['code'] },
    read: '/payouts/beneficiaries/{code}',
    list: { path: '/payouts/beneficiaries', id: ['code'] },
  },
  payoutQuote: {
    label: 'payout quote',
    refs: { beneficiary_code: 'beneficiary' },
    create: { method: 'POST', path: '/payouts/quotes', id: ['code', 'quote_code'] },
  },
  payout: {
    label: 'payout',
    // Confirming a quote makes the payout, which keeps the quote's code.
    from: 'payoutQuote',
    steps: [{ call: { method: 'POST', path: '/payouts' } }],
    read: '/payouts/{code}',
    list: { path: '/payouts', id: ['code'] },
  },
  virtualAccount: {
    label: 'virtual account',
    // Virtual account creation requires the `full` verification level.
    refs: { customer_code: 'fullCustomer' },
    create: { method: 'POST', path: '/virtual-accounts', id: ['code'] },
    read: '/virtual-accounts/{code}',
    list: { path: '/virtual-accounts', id: ['code'] },
  },
  giftCardProduct: {
    label: 'gift card product',
    read: '/gift-cards/products/{productId}',
    list: { path: '/gift-cards/products', id: ['product_id'] },
  },
  giftCardOrder: {
    label: 'gift card order',
    refs: { customer_code: 'customer', product_id: 'giftCardProduct' },
    create: { method: 'POST', path: '/gift-cards/orders', id: ['code'] },
    ready: settled('pending'),
    read: '/gift-cards/orders/{code}',
    list: { path: '/gift-cards/orders', id: ['code'] },
  },
  event: {
    label: 'event',
    read: '/events/{id}',
    list: { path: '/events', id: ['id'] },
  },
};

export const SETUP_GRAPH: SetupGraph = { resources: RESOURCES, references: REFERENCES };
