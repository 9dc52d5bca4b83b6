// Virtual accounts (tag "Virtual accounts"): the product `virtual_accounts` of a subscription; an opening is
// billed to `others`, which every account holds.
import type { ProductModule } from '../core/sandbox.js';
import { virtualAccounts } from './handlers.js';
import { virtualAccountSimulation } from './simulation.js';
import { TABLES } from './tables.js';

export const product: ProductModule = {
  folder: 'virtual-accounts',
  tables: TABLES,
  handlers: virtualAccounts,
  simulation: virtualAccountSimulation,
  subscription: { product: 'virtual_accounts', label: 'Virtual accounts', balances: [] },
};
