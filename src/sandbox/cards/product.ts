// Cards (tag "Cards"): the product `cards` of a subscription, which also opens KYC and proof of address
// (the contract's `x-plans.products`).
import type { ProductModule } from '../core/sandbox.js';
import { cards } from './handlers.js';
import { ISSUE_JOB, TERMINATION_JOB, TOPUP_JOB, cardSnapshotPart } from './lifecycle.js';
import { cardSimulation } from './simulation.js';
import { TABLES } from './tables.js';

export const product: ProductModule = {
  folder: 'cards',
  tables: TABLES,
  handlers: cards,
  simulation: cardSimulation,
  jobs: [ISSUE_JOB, TOPUP_JOB, TERMINATION_JOB],
  snapshot: cardSnapshotPart,
  subscription: { product: 'cards', label: 'Cards (cards, KYC and proof of address)', balances: ['cards_visa', 'cards_mastercard'] },
};
