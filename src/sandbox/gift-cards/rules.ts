// A gift card order and its outcomes, shared by the partner API, the automatic delivery and the simulation API:
// an order of a catalogue product debits `gift_cards` with amount x quantity (in USD: a EUR product's at the
// fixed rate) and is `pending`, then `delivered` (redemption details on GET only) by itself unless the account
// is manual; `failed` refunds it; a delivered order can be `refunded`.
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import { perCore, type Call, type SandboxCore } from '../core/context.js';
import { apiError, notFound, validationError } from '../core/errors.js';
import { defineJob } from '../core/scheduler.js';
import { toAmount } from '../core/money.js';
import { requireActiveCustomer } from '../customers/require.js';
import { orderable, productById, usdMinorOf } from './catalogue.js';
import {
  insertOrder,
  markOrderDelivered,
  markOrderUndelivered,
  orderByCode,
  type GiftCardOrderRow,
  type Redemption,
} from './repository.js';

/** The automatic delivery of a pending order. */
export const DELIVERY_JOB = defineJob<{ order: string }>(
  'gift_card.delivery',
  (core, { order: code }) => {
    const orders = giftCardOrders(core);
    const order = orders.byCode(code);
    if (order?.status === 'pending') orders.settle(order, { outcome: 'delivered' });
  },
  { automatic: true },
);
const YEAR_MS = 365 * 86_400_000;

export class GiftCardOrders {
  private readonly core: SandboxCore;

  constructor(core: SandboxCore) {
    this.core = core;
  }

  byCode(code: string): GiftCardOrderRow | undefined {
    return orderByCode(this.core, code);
  }

  /** Orders `body.quantity` cards of `amountMinor` (the product's currency) for an active customer; returns the order, pending. */
  order(account: Account, body: Call<'createGiftCardOrder'>['body'], amountMinor: number): GiftCardOrderRow {
    const { clock, ledger, scheduler } = this.core;
    const customer = requireActiveCustomer(this.core, account.id, body.customer_code);
    const product = productById(body.product_id);
    if (!product) throw notFound('Gift card product');
    if (!orderable(product, amountMinor)) {
      const allowed =
        product.denomination_type === 'fixed'
          ? `one of ${(product.denominations ?? []).join(', ')}`
          : `from ${product.min_amount} to ${product.max_amount}`;
      throw validationError(`The amount of ${product.product_id} must be ${allowed} ${product.currency}.`, [
        { field: 'amount', message: `must be ${allowed}` },
      ]);
    }
    const code = randomUUID();
    const debited = usdMinorOf(product, amountMinor * body.quantity);
    ledger.debit(account, 'gift_cards', debited, {
      reason: 'gift_card_order',
      description: `Gift card order ${code}: ${body.quantity} x ${toAmount(amountMinor)} ${product.currency} ${product.name}`,
      customerCode: customer.code,
      eventFields: { product: product.product_id },
    });
    insertOrder(this.core, {
      code,
      account_id: account.id,
      customer_code: customer.code,
      product_id: product.product_id,
      amount_minor: amountMinor,
      quantity: body.quantity,
      debited_minor: debited,
    });
    if (!account.manual) scheduler.schedule(DELIVERY_JOB, clock.now() + this.core.autoCompleteMs, { order: code });
    return this.byCode(code)!;
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
        throw apiError('VALIDATION_ERROR', `Only a ${from} order can become ${choice.outcome}; this order is ${current.status}.`, {
          fields: [],
          current_status: current.status,
        });
      }
      const account = accounts.byId(current.account_id);
      const base = {
        order_code: current.code,
        customer_code: current.customer_code,
        product_id: current.product_id,
        amount: toAmount(current.amount_minor),
        quantity: current.quantity,
      };
      const now = clock.now();
      if (choice.outcome === 'delivered') {
        const redemptions: Redemption[] = Array.from({ length: current.quantity }, () => {
          const code = randomBytes(8).toString('hex').toUpperCase();
          return {
            redemption_code: code,
            pin: String(randomInt(10_000)).padStart(4, '0'),
            redemption_url: `https://sandbox.giftcards.test/redeem/${code}`,
            expires_at: new Date(now + YEAR_MS).toISOString().slice(0, 10),
          };
        });
        markOrderDelivered(this.core, current.code, redemptions);
        outbox.emit(account, 'gift_card.delivered', { ...base, delivered_at: clock.iso(now) });
      } else {
        ledger.credit(account, 'gift_cards', current.debited_minor, {
          reason: choice.outcome === 'failed' ? 'gift_card_order_refund' : 'gift_card_refund',
          description: `Refund of gift card order ${current.code}`,
          customerCode: current.customer_code,
        });
        markOrderUndelivered(this.core, current.code, choice.outcome);
        if (choice.outcome === 'failed')
          outbox.emit(account, 'gift_card.failed', { ...base, reason: choice.reason ?? 'vendor_error', failed_at: clock.iso(now) });
        else
          outbox.emit(account, 'gift_card.refunded', {
            ...base,
            refunded_amount: toAmount(current.debited_minor),
            balance_type: 'gift_cards',
            refunded_at: clock.iso(now),
          });
      }
      return this.byCode(current.code)!;
    });
  }
}

export const giftCardOrders = perCore((core) => new GiftCardOrders(core));
