// Gift card orders in the store and their contract shape (the catalogue is ./catalogue.ts).
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { toAmount } from '../core/money.js';

export type Redemption = components['schemas']['GiftCardRedemption'];

export interface GiftCardOrderRow {
  code: string;
  account_id: number;
  customer_code: string;
  product_id: string;
  amount_minor: number;
  quantity: number;
  debited_minor: number;
  status: components['schemas']['GiftCardOrder']['status'];
  redemptions: string | null;
  created_at: number;
}

/** The order's contract shape; its redemption details only when `withRedemptions` (GET of one delivered order). */
export function orderOf(
  clock: SandboxCore['clock'],
  r: GiftCardOrderRow,
  withRedemptions: boolean,
): components['schemas']['GiftCardOrder'] {
  return {
    code: r.code,
    customer_code: r.customer_code,
    product_id: r.product_id,
    amount: toAmount(r.amount_minor),
    quantity: r.quantity,
    status: r.status,
    created_at: clock.iso(r.created_at),
    redemptions: withRedemptions && r.status === 'delivered' && r.redemptions ? (JSON.parse(r.redemptions) as Redemption[]) : null,
  };
}

export function orderByCode(core: SandboxCore, code: string): GiftCardOrderRow | undefined {
  return core.db.get<GiftCardOrderRow>('SELECT * FROM gift_card_orders WHERE code = ?', code);
}

/** The account's order, or 404. */
export function findOrder(core: SandboxCore, account: Account, code: string): GiftCardOrderRow {
  const row = core.db.get<GiftCardOrderRow>('SELECT * FROM gift_card_orders WHERE account_id = ? AND code = ?', account.id, code);
  if (!row) throw notFound('Gift card order');
  return row;
}

/** A new pending order. */
export function insertOrder(
  core: SandboxCore,
  row: Pick<GiftCardOrderRow, 'code' | 'account_id' | 'customer_code' | 'product_id' | 'amount_minor' | 'quantity' | 'debited_minor'>,
): void {
  core.db.run(
    `INSERT INTO gift_card_orders (code, account_id, customer_code, product_id, amount_minor, quantity, debited_minor, status, redemptions, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', NULL, ?)`,
    row.code,
    row.account_id,
    row.customer_code,
    row.product_id,
    row.amount_minor,
    row.quantity,
    row.debited_minor,
    core.clock.now(),
  );
}

export function markOrderDelivered(core: SandboxCore, code: string, redemptions: Redemption[]): void {
  core.db.run("UPDATE gift_card_orders SET status = 'delivered', redemptions = ? WHERE code = ?", JSON.stringify(redemptions), code);
}

/** A failed or refunded order: it has no redemptions. */
export function markOrderUndelivered(core: SandboxCore, code: string, status: 'failed' | 'refunded'): void {
  core.db.run('UPDATE gift_card_orders SET status = ?, redemptions = NULL WHERE code = ?', status, code);
}
