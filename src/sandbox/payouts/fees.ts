// Payout prices of the sandbox (provisional: the document gives no fee, rate or quote validity).

import type { components } from '../../../generated/openapi.js';

export type Rail = components['schemas']['PayoutRail'];

/** Fee in USD minor units: 0.5 % of the amount, at least 1.00 (SEPA) or 2.00 (ACH), rounded to the cent. */
export function payoutFeeMinor(rail: Rail, amountMinor: number): number {
  return Math.max(rail === 'sepa' ? 100 : 200, Math.round(amountMinor / 200));
}

/** The sandbox's fixed USD -> EUR rate. */
export const USD_EUR_RATE = 0.92;

export const toEurMinor = (usdMinor: number): number => Math.round(usdMinor * USD_EUR_RATE);

/** A quote can be confirmed for 5 minutes of the clock. */
export const QUOTE_VALIDITY_MS = 5 * 60_000;

/** The ops balance each rail is paid from: SEPA from `payout_sepa`, ACH from 'Ops Others'. */
export const BALANCE_OF_RAIL = { sepa: 'payout_sepa', ach: 'others' } as const;

/** Découverte: at most 5,000 USD of payouts per calendar month (amount_usd of confirmed payouts). */
export const DECOUVERTE_PAYOUTS_PER_MONTH_MINOR = 500_000;

/** Countries whose IBAN the sandbox finds a BIC for (SEPA members). */
export const SEPA_COUNTRIES = new Set(['AT', 'BE', 'BG', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GB', 'GR', 'HR', 'HU', 'IE', 'IS', 'IT', 'LI', 'LT', 'LU', 'LV', 'MC', 'MT', 'NL', 'NO', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'SM']);
