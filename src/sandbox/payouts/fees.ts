// Payout prices of the sandbox (provisional: the document gives no fee, rate or quote validity).

import type { components } from '../../../generated/openapi.js';

export type Rail = components['schemas']['PayoutRail'];

/** The payout fee: a share of the amount (basis points: 50 is 0.5 %), at least the rail's minimum. */
export const PAYOUT_FEE = { basisPoints: 50, minimumMinor: { sepa: 100, ach: 200 } } as const satisfies {
  basisPoints: number;
  minimumMinor: Record<Rail, number>;
};

/** Fee in USD minor units, rounded to the cent. */
export function payoutFeeMinor(rail: Rail, amountMinor: number): number {
  return Math.max(PAYOUT_FEE.minimumMinor[rail], Math.round((amountMinor * PAYOUT_FEE.basisPoints) / 10_000));
}

/** The sandbox's fixed USD -> EUR rate. */
export const USD_EUR_RATE = 0.92;

export const toEurMinor = (usdMinor: number): number => Math.round(usdMinor * USD_EUR_RATE);

/** A quote can be confirmed for 5 minutes of the clock. */
export const QUOTE_VALIDITY_MS = 5 * 60_000;

/** The ops balance each rail is paid from: SEPA from `payout_sepa`, ACH from 'Ops Others'. */
export const BALANCE_OF_RAIL = { sepa: 'payout_sepa', ach: 'others' } as const;

/** Countries whose IBAN the sandbox finds a BIC for (SEPA members). */
export const SEPA_COUNTRIES = new Set([
  'AT',
  'BE',
  'BG',
  'CH',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HR',
  'HU',
  'IE',
  'IS',
  'IT',
  'LI',
  'LT',
  'LU',
  'LV',
  'MC',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
  'SM',
]);
