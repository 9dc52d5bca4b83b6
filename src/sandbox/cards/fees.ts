// The card fees the sandbox applies, each defined here only. The interface document names the fees but gives no
// amounts: every amount here is designed (provisional) and listed in docs/sandbox.md (tests/sandbox/docs-values.test.ts
// checks the tables there against these values). The limits the contract states are read from it (core/limits.ts).
import type { Plan } from '../core/accounts.js';

/** Card fee at creation, minor units: 5.00 USD virtual, 15.00 USD physical. */
export const CARD_FEE_MINOR = { virtual: 500, physical: 1_500 } as const;
/** Service fee at creation, minor units: 1.00 USD. */
export const SERVICE_FEE_MINOR = 100;
/** Top-up fee: a share of the amount (basis points: 200 is 2 %), at least a minimum, rounded half up to the cent. */
export const TOPUP_FEE = { basisPoints: 200, minimumMinor: 100 } as const;
export function topUpFeeMinor(amountMinor: number): number {
  return Math.max(TOPUP_FEE.minimumMinor, Math.round((amountMinor * TOPUP_FEE.basisPoints) / 10_000));
}
/** Card withdrawal fee of each plan, minor units. */
export const WITHDRAWAL_FEE_MINOR: Record<Plan, number> = { decouverte: 200, starter: 150, business: 100, premium: 50 };
/** At termination: the provider fee and the termination fee, minor units, taken from the card balance. */
export const PROVIDER_FEE_MINOR = 50;
export const TERMINATION_FEE_MINOR = 100;

/** The card products of the sandbox (designed): one uuid per brand and category. */
export const PRODUCT_CODES = {
  VISA: { virtual: '5d8e1f2a-3b4c-4d5e-8f9a-0b1c2d3e4f5a', physical: '5d8e1f2a-3b4c-4d5e-8f9a-0b1c2d3e4f5b' },
  MASTERCARD: { virtual: '6e9f2a3b-4c5d-4e6f-9a0b-1c2d3e4f5a6b', physical: '6e9f2a3b-4c5d-4e6f-9a0b-1c2d3e4f5a6c' },
} as const;
