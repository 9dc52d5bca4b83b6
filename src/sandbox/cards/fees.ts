// The card fees and limits the sandbox applies. The interface document names the fees but gives no amounts
// beyond the withdrawal rules: every amount here is designed (provisional) and listed in docs/sandbox.md.
import type { Plan } from '../core/accounts.js';

/** Card fee at creation, minor units: 5.00 USD virtual, 15.00 USD physical. */
export const CARD_FEE_MINOR = { virtual: 500, physical: 1_500 } as const;
/** Service fee at creation, minor units: 1.00 USD. */
export const SERVICE_FEE_MINOR = 100;
/** Top-up fee: 2 % of the amount, at least 1.00 USD (rounded half up to the cent). */
export function topUpFeeMinor(amountMinor: number): number {
  return Math.max(100, Math.round((amountMinor * 2) / 100));
}
/** Card withdrawal fee of each plan, minor units. */
export const WITHDRAWAL_FEE_MINOR: Record<Plan, number> = { decouverte: 200, starter: 150, business: 100, premium: 50 };
/** At termination: the provider fee and the termination fee, minor units, taken from the card balance. */
export const PROVIDER_FEE_MINOR = 50;
export const TERMINATION_FEE_MINOR = 100;

/** Withdrawals: at least 5 USD, and 5 USD must remain on the card (documented). */
export const WITHDRAWAL_MIN_MINOR = 500;
export const CARD_FLOOR_MINOR = 500;

/** Découverte monthly limits (documented): 25 cards created, 5,000 USD loaded on cards. */
export const DECOUVERTE_CARDS_PER_MONTH = 25;
export const DECOUVERTE_LOADED_PER_MONTH_MINOR = 500_000;

/** The card products of the sandbox (designed): one uuid per brand and category. */
export const PRODUCT_CODES = {
  VISA: { virtual: '5d8e1f2a-3b4c-4d5e-8f9a-0b1c2d3e4f5a', physical: '5d8e1f2a-3b4c-4d5e-8f9a-0b1c2d3e4f5b' },
  MASTERCARD: { virtual: '6e9f2a3b-4c5d-4e6f-9a0b-1c2d3e4f5a6b', physical: '6e9f2a3b-4c5d-4e6f-9a0b-1c2d3e4f5a6c' },
} as const;
