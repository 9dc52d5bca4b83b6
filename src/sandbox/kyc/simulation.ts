// KYC's part of the simulation API (spec/sandbox.yaml): choose the outcome of a customer's verification.
import type { operations } from '../../../generated/sandbox.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { findCustomer } from '../customers/repository.js';
import { kycStatusOf } from './repository.js';
import { kycVerification } from './verification.js';

export function kycSimulation(core: SandboxCore): Handlers<operations> {
  return {
    simulateKycOutcome({ account, params, body }) {
      const kyc = kycVerification(core);
      if (!findCustomer(core, account.id, params.customerCode)) throw notFound('Customer');
      const row = kyc.apply(account, params.customerCode, body);
      return { data: kycStatusOf(core, row, findCustomer(core, account.id, params.customerCode)!) };
    },
  };
}
