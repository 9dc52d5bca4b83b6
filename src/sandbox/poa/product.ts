// Proof of address (tag "Proof of address"): part of the product `cards` of a subscription (the contract's
// `x-plans.products`).
import type { ProductModule } from '../core/sandbox.js';
import { poa } from './handlers.js';
import { POA_AUTO_JOB } from './rules.js';
import { poaSimulation } from './simulation.js';
import { TABLES } from './tables.js';

export const product: ProductModule = {
  folder: 'poa',
  tables: TABLES,
  handlers: poa,
  simulation: poaSimulation,
  jobs: [POA_AUTO_JOB],
};
