// Payouts (tag "Payouts"): the product `payouts` of a subscription; SEPA from its ops balance, ACH from
// `others`, which every account holds.
import type { ProductModule } from '../core/sandbox.js';
import { payouts } from './handlers.js';
import { PAYOUT_JOB } from './rules.js';
import { payoutSimulation } from './simulation.js';
import { TABLES } from './tables.js';

export const product: ProductModule = {
  folder: 'payouts',
  tables: TABLES,
  handlers: payouts,
  simulation: payoutSimulation,
  jobs: [PAYOUT_JOB],
  subscription: { product: 'payouts', label: 'Payouts', balances: ['payout_sepa'] },
};
