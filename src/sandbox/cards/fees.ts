// The card fees the sandbox applies, read from the contract (`x-plans.fees` of generated/openapi.json, provisional:
// the interface document names the fees but gives no amounts). docs/limits.md lists them in a table npm run build
// writes from the same values (scripts/build/plans-tables.ts), which docs/sandbox.md links to.
import type { Plan } from '../core/accounts.js';
import { contractPlans } from '../core/limits.js';

const fees = contractPlans().fees;

/** Card fee at creation, minor units, by category. */
export const CARD_FEE_MINOR: Readonly<{ virtual: number; physical: number }> = fees.cardFeeMinor;
/** Service fee at creation, minor units. */
export const SERVICE_FEE_MINOR = fees.serviceFeeMinor;
/** Top-up fee: a share of the amount (basis points: 200 is 2 %), at least a minimum, rounded half up to the cent. */
export const TOPUP_FEE: Readonly<{ basisPoints: number; minimumMinor: number }> = fees.topUpFee;
export function topUpFeeMinor(amountMinor: number): number {
  return Math.max(TOPUP_FEE.minimumMinor, Math.round((amountMinor * TOPUP_FEE.basisPoints) / 10_000));
}
/** Card withdrawal fee of each plan, minor units. */
export const WITHDRAWAL_FEE_MINOR: Readonly<Record<Plan, number>> = fees.withdrawalFeeMinor;
/** At termination: the provider fee and the termination fee, minor units, taken from the card balance. */
export const PROVIDER_FEE_MINOR = fees.providerFeeMinor;
export const TERMINATION_FEE_MINOR = fees.terminationFeeMinor;

/** The card products of the sandbox (designed): one uuid per brand and category. */
export const PRODUCT_CODES = {
  VISA: { virtual: '5d8e1f2a-3b4c-4d5e-8f9a-0b1c2d3e4f5a', physical: '5d8e1f2a-3b4c-4d5e-8f9a-0b1c2d3e4f5b' },
  MASTERCARD: { virtual: '6e9f2a3b-4c5d-4e6f-9a0b-1c2d3e4f5a6b', physical: '6e9f2a3b-4c5d-4e6f-9a0b-1c2d3e4f5a6c' },
} as const;
