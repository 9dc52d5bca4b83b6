// Gift cards (tag "Gift cards", served at /api/v1): the catalogue, and orders that debit `gift_cards` with
// amount x quantity (in USD: a EUR product's at the fixed rate). An order is `pending`, then `delivered`
// (redemption details on GET only) by itself unless the account is manual; `failed` refunds it; a delivered order can be `refunded` (simulation).
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { page, pageWindow, perCore } from '../core/context.js';
import { apiError, notFound, validationError } from '../core/errors.js';
import { requestAmountMinor, toAmount } from '../core/money.js';
import { customerPage, requireActiveCustomer } from '../customers/require.js';
import { CATALOGUE, orderable, productById, usdMinorOf } from './catalogue.js';

export const DELIVERY_JOB_KIND = 'gift_card.delivery';
const YEAR_MS = 365 * 86_400_000;

type Redemption = components['schemas']['GiftCardRedemption'];

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

function orderOf(clock: SandboxCore['clock'], r: GiftCardOrderRow, withRedemptions: boolean): components['schemas']['GiftCardOrder'] {
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

/** The order outcomes, shared with the simulation API. */
export class GiftCardOrders {
  private readonly core: SandboxCore;

  constructor(core: SandboxCore) {
    this.core = core;
    core.scheduler.register(DELIVERY_JOB_KIND, (p) => {
      const order = this.byCode(String(p.order));
      if (order?.status === 'pending') this.settle(order, { outcome: 'delivered' });
    });
  }

  byCode(code: string): GiftCardOrderRow | undefined {
    return this.core.db.get<GiftCardOrderRow>('SELECT * FROM gift_card_orders WHERE code = ?', code);
  }

  find(account: Account, code: string): GiftCardOrderRow {
    const row = this.core.db.get<GiftCardOrderRow>('SELECT * FROM gift_card_orders WHERE account_id = ? AND code = ?', account.id, code);
    if (!row) throw notFound('Gift card order');
    return row;
  }

  static view(clock: SandboxCore['clock'], r: GiftCardOrderRow, withRedemptions = true) {
    return orderOf(clock, r, withRedemptions);
  }

  /**
   * `delivered` (from pending): redemption details, `gift_card.delivered`. `failed` (from pending): the
   * debit is credited back, `gift_card.failed`. `refunded` (from delivered): the debit is credited back,
   * `gift_card.refunded`.
   */
  settle(order: GiftCardOrderRow, choice: { outcome: 'delivered' | 'failed' | 'refunded'; reason?: string }): GiftCardOrderRow {
    const { db, clock, outbox, ledger, accounts } = this.core;
    return db.transaction(() => {
      const current = this.byCode(order.code)!;
      const from = choice.outcome === 'refunded' ? 'delivered' : 'pending';
      if (current.status !== from) {
        throw apiError('VALIDATION_ERROR', `Only a ${from} order can become ${choice.outcome}; this order is ${current.status}.`, { fields: [], current_status: current.status });
      }
      const account = accounts.byId(current.account_id);
      const base = { order_code: current.code, customer_code: current.customer_code, product_id: current.product_id, amount: toAmount(current.amount_minor), quantity: current.quantity };
      const now = clock.now();
      if (choice.outcome === 'delivered') {
        const redemptions: Redemption[] = Array.from({ length: current.quantity }, () => {
          const code = randomBytes(8).toString('hex').toUpperCase();
          return { redemption_code: code, pin: String(randomInt(10_000)).padStart(4, '0'), redemption_url: `https://sandbox.giftcards.test/redeem/${code}`, expires_at: new Date(now + YEAR_MS).toISOString().slice(0, 10) };
        });
        db.run("UPDATE gift_card_orders SET status = 'delivered', redemptions = ? WHERE code = ?", JSON.stringify(redemptions), current.code);
        outbox.emit(account, 'gift_card.delivered', { ...base, delivered_at: clock.iso(now) });
      } else {
        ledger.credit(account, 'gift_cards', current.debited_minor, {
          reason: choice.outcome === 'failed' ? 'gift_card_order_refund' : 'gift_card_refund',
          description: `Refund of gift card order ${current.code}`,
          customerCode: current.customer_code,
        });
        db.run('UPDATE gift_card_orders SET status = ?, redemptions = NULL WHERE code = ?', choice.outcome, current.code);
        if (choice.outcome === 'failed') outbox.emit(account, 'gift_card.failed', { ...base, reason: choice.reason ?? 'vendor_error', failed_at: clock.iso(now) });
        else outbox.emit(account, 'gift_card.refunded', { ...base, refunded_amount: toAmount(current.debited_minor), balance_type: 'gift_cards', refunded_at: clock.iso(now) });
      }
      return this.byCode(current.code)!;
    });
  }
}

export const giftCardOrders = perCore((core) => new GiftCardOrders(core));

export function giftCards(core: SandboxCore): Handlers {
  const { db, clock, ledger, scheduler } = core;
  const orders = giftCardOrders(core);
  return {
    listGiftCardProducts({ query }) {
      const all = CATALOGUE.filter((p) => query.country === undefined || p.country === query.country);
      const [limit, offset] = pageWindow(query);
      return page(all.slice(offset, offset + limit), all.length, query);
    },

    getGiftCardProduct({ params }) {
      const product = productById(params.productId);
      if (!product) throw notFound('Gift card product');
      return { data: product };
    },

    createGiftCardOrder({ account, body }) {
      const amount = requestAmountMinor('amount', body.amount);
      return db.transaction(() => {
        const customer = requireActiveCustomer(core, account.id, body.customer_code);
        const product = productById(body.product_id);
        if (!product) throw notFound('Gift card product');
        if (!orderable(product, amount)) {
          const allowed = product.denomination_type === 'fixed' ? `one of ${(product.denominations ?? []).join(', ')}` : `from ${product.min_amount} to ${product.max_amount}`;
          throw validationError(`The amount of ${product.product_id} must be ${allowed} ${product.currency}.`, [{ field: 'amount', message: `must be ${allowed}` }]);
        }
        const code = randomUUID();
        const debited = usdMinorOf(product, amount * body.quantity);
        ledger.debit(account, 'gift_cards', debited, {
          reason: 'gift_card_order',
          description: `Gift card order ${code}: ${body.quantity} x ${toAmount(amount)} ${product.currency} ${product.name}`,
          customerCode: customer.code,
          eventFields: { product: product.product_id },
        });
        db.run(
          `INSERT INTO gift_card_orders (code, account_id, customer_code, product_id, amount_minor, quantity, debited_minor, status, redemptions, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', NULL, ?)`,
          code, account.id, customer.code, product.product_id, amount, body.quantity, debited, clock.now(),
        );
        if (!account.manual) scheduler.schedule(DELIVERY_JOB_KIND, clock.now() + core.autoCompleteMs, { order: code });
        return { data: orderOf(clock, orders.byCode(code)!, false) };
      });
    },

    listGiftCardOrders({ account, query }) {
      const { rows, total } = customerPage<GiftCardOrderRow>(core, account.id, 'gift_card_orders', 'code', query);
      return page(rows.map((r) => orderOf(clock, r, false)), total, query);
    },

    getGiftCardOrder({ account, params }) {
      return { data: orderOf(clock, orders.find(account, params.code), true), headers: { 'Cache-Control': 'no-store' } };
    },
  };
}
