// The sandbox's gift card catalogue (provisional: the contract designs the catalogue; the service's
// products are not shown). The USD products debit `gift_cards` with their value; the contract's two example
// products are in EUR and debit their USD value at the sandbox's fixed rate (the payouts' rate).
import type { components } from '../../../generated/openapi.js';
import { USD_EUR_RATE } from '../payouts/fees.js';

export type GiftCardProduct = components['schemas']['GiftCardProduct'];

/**
 * Written in the order the list answers: by name, then product_id (tests/sandbox/gift-cards.test.ts checks it with
 * `localeCompare`). Not sorted here: the first `localeCompare` of a process loads ICU's collator, some ms of a start.
 */
export const CATALOGUE: readonly GiftCardProduct[] = [
  {
    product_id: 'amazon_us_usd',
    name: 'Amazon.com',
    brand: 'Amazon',
    country: 'US',
    currency: 'USD',
    denomination_type: 'fixed',
    denominations: [10, 25, 50, 100],
    min_amount: null,
    max_amount: null,
    redemption_instructions: 'Redeem at amazon.com/redeem.',
  },
  {
    product_id: 'gcp_000123',
    name: 'Amazon.fr gift card',
    brand: 'Amazon',
    country: 'FR',
    currency: 'EUR',
    denomination_type: 'fixed',
    denominations: [10, 25, 50, 100],
    min_amount: null,
    max_amount: null,
    redemption_instructions: 'Enter the code at amazon.fr/redeem before checkout.',
  },
  {
    product_id: 'apple_us_usd',
    name: 'Apple Gift Card',
    brand: 'Apple',
    country: 'US',
    currency: 'USD',
    denomination_type: 'range',
    denominations: null,
    min_amount: 5,
    max_amount: 500,
    redemption_instructions: 'Redeem in the App Store or at apple.com/redeem.',
  },
  {
    product_id: 'gcp_000456',
    name: 'Fnac gift card',
    brand: 'Fnac',
    country: 'FR',
    currency: 'EUR',
    denomination_type: 'range',
    denominations: null,
    min_amount: 15,
    max_amount: 500,
    redemption_instructions: null,
  },
  {
    product_id: 'google_play_us_usd',
    name: 'Google Play',
    brand: 'Google',
    country: 'US',
    currency: 'USD',
    denomination_type: 'fixed',
    denominations: [15, 25, 50],
    min_amount: null,
    max_amount: null,
    redemption_instructions: 'Redeem at play.google.com/redeem.',
  },
  {
    product_id: 'steam_gb_usd',
    name: 'Steam Wallet',
    brand: 'Valve',
    country: 'GB',
    currency: 'USD',
    denomination_type: 'range',
    denominations: null,
    min_amount: 5,
    max_amount: 200,
    redemption_instructions: 'Redeem at store.steampowered.com/account/redeemwalletcode.',
  },
];

export const productById = (id: string): GiftCardProduct | undefined => CATALOGUE.find((p) => p.product_id === id);

/** Whether `amount` (minor units) can be ordered: one of the denominations, or within the range. */
export function orderable(product: GiftCardProduct, minor: number): boolean {
  if (product.denomination_type === 'fixed') return (product.denominations ?? []).some((d) => Math.round(d * 100) === minor);
  return minor >= Math.round((product.min_amount ?? 0) * 100) && minor <= Math.round((product.max_amount ?? 0) * 100);
}

/** What `minor` of the product's currency (minor units) costs in USD minor units: EUR at 0.92 EUR per USD. */
export function usdMinorOf(product: GiftCardProduct, minor: number): number {
  if (product.currency === 'USD') return minor;
  if (product.currency === 'EUR') return Math.round(minor / USD_EUR_RATE);
  throw new Error(`gift card product ${product.product_id}: no rate for ${product.currency}`);
}
