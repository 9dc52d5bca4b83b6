// KYC (tag "KYC"): part of the product `cards` of a subscription (the contract's `x-plans.products`); its hosted page.
import type { ProductModule } from '../core/sandbox.js';
import { kyc } from './handlers.js';
import { kycPage } from './page.js';
import { kycSimulation } from './simulation.js';
import { TABLES } from './tables.js';
import { KYC_AUTO_JOB, KYC_EXPIRY_JOB } from './verification.js';

export const product: ProductModule = {
  folder: 'kyc',
  tables: TABLES,
  handlers: kyc,
  simulation: kycSimulation,
  pages: kycPage,
  jobs: [KYC_AUTO_JOB, KYC_EXPIRY_JOB],
};
