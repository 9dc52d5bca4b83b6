// Wallets (tag "Wallets"): the product `wallets` of a subscription, which comes with no ops balance of its own.
import type { ProductModule } from '../core/sandbox.js';
import { wallets } from './handlers.js';
import { WITHDRAWAL_JOB } from './rules.js';
import { walletSimulation } from './simulation.js';
import { TABLES } from './tables.js';

export const product: ProductModule = {
  folder: 'wallets',
  tables: TABLES,
  handlers: wallets,
  simulation: walletSimulation,
  jobs: [WITHDRAWAL_JOB],
  subscription: { product: 'wallets', label: 'Wallets', balances: [] },
};
