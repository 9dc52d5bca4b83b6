// The product modules of the sandbox, each declared once by its folder's product.ts: the one list the sandbox
// is assembled from (index.ts: tables, handlers, jobs, subscriptions; simulation/routes.ts: the simulation API and
// pages). Tables are made in this order, a table after those it refers to.
import type { ProductModule } from './core/sandbox.js';
import { product as balances } from './balances/product.js';
import { product as cards } from './cards/product.js';
import { product as customers } from './customers/product.js';
import { product as events } from './events/product.js';
import { product as giftCards } from './gift-cards/product.js';
import { product as kyc } from './kyc/product.js';
import { product as payouts } from './payouts/product.js';
import { product as poa } from './poa/product.js';
import { product as virtualAccounts } from './virtual-accounts/product.js';
import { product as wallets } from './wallets/product.js';
import { product as webhooks } from './webhook-endpoints/product.js';

export const PRODUCT_MODULES: readonly ProductModule[] = [
  webhooks,
  balances,
  customers,
  cards,
  kyc,
  poa,
  wallets,
  virtualAccounts,
  giftCards,
  payouts,
  events,
];
