// The sandbox's gift card catalogue (provisional: the contract designs the catalogue; the service's
// products are not shown). Every product is in USD, so an order debits `gift_cards` with its value.
import type { components } from '../../../generated/openapi.js';

export type GiftCardProduct = components['schemas']['GiftCardProduct'];

const PRODUCTS: GiftCardProduct[] = [
  { product_id: 'amazon_us_usd', name: 'Amazon.com', brand: 'Amazon', country: 'US', currency: 'USD', denomination_type: 'fixed', denominations: [10, 25, 50, 100], min_amount: null, max_amount: null, redemption_instructions: 'Redeem at amazon.com/redeem.' },
  { product_id: 'apple_us_usd', name: 'Apple Gift Card', brand: 'Apple', country: 'US', currency: 'USD', denomination_type: 'range', denominations: null, min_amount: 5, max_amount: 500, redemption_instructions: 'Redeem in the App Store or at apple.com/redeem.' },
  { product_id: 'google_play_us_usd', name: 'Google Play', brand: 'Google', country: 'US', currency: 'USD', denomination_type: 'fixed', denominations: [15, 25, 50], min_amount: null, max_amount: null, redemption_instructions: 'Redeem at play.google.com/redeem.' },
  { product_id: 'steam_gb_usd', name: 'Steam Wallet', brand: 'Valve', country: 'GB', currency: 'USD', denomination_type: 'range', denominations: null, min_amount: 5, max_amount: 200, redemption_instructions: 'Redeem at store.steampowered.com/account/redeemwalletcode.' },
];

/** Sorted by name, then product_id, as the list answers. */
export const CATALOGUE: readonly GiftCardProduct[] = PRODUCTS.sort((a, b) => a.name.localeCompare(b.name) || a.product_id.localeCompare(b.product_id));

export const productById = (id: string): GiftCardProduct | undefined => CATALOGUE.find((p) => p.product_id === id);

/** Whether `amount` (minor units) can be ordered: one of the denominations, or within the range. */
export function orderable(product: GiftCardProduct, minor: number): boolean {
  if (product.denomination_type === 'fixed') return (product.denominations ?? []).some((d) => Math.round(d * 100) === minor);
  return minor >= Math.round((product.min_amount ?? 0) * 100) && minor <= Math.round((product.max_amount ?? 0) * 100);
}
