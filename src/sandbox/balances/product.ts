// The ops balances (tag "Balances"): their table is the core's ledger (core/store.ts); their own job is the
// low balance check, one per account.
import type { ProductModule } from '../core/sandbox.js';
import { balances } from './handlers.js';
import { LOW_BALANCE_CHECK_JOB, scheduleLowBalanceChecks } from './rules.js';
import { balanceSimulation } from './simulation.js';

export const product: ProductModule = {
  folder: 'balances',
  handlers: balances,
  simulation: balanceSimulation,
  jobs: [LOW_BALANCE_CHECK_JOB],
  attach: scheduleLowBalanceChecks,
};
