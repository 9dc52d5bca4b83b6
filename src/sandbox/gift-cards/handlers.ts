// Gift cards (tag "Gift cards", served at /api/v1): the catalogue (./catalogue.ts), and orders that debit
// `gift_cards` with amount x quantity (in USD: a EUR product's at the fixed rate). The outcomes of an order are
// in ./rules.ts, the rows in ./repository.ts.
import { randomUUID } from 'node:crypto';
import type { Handlers, SandboxCore } from '../core/context.js';
import { page, pageWindow } from '../core/context.js';
import { notFound, validationError } from '../core/errors.js';
import { requestAmountMinor, toAmount } from '../core/money.js';
import { customerPage, requireActiveCustomer } from '../customers/require.js';
import { CATALOGUE, orderable, productById, usdMinorOf } from './catalogue.js';
import { findOrder, insertOrder, orderByCode, orderOf, type GiftCardOrderRow } from './repository.js';
import { DELIVERY_JOB_KIND, giftCardOrders } from './rules.js';

export function giftCards(core: SandboxCore): Handlers {
  const { clock, ledger, scheduler } = core;
  giftCardOrders(core);
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
      const customer = requireActiveCustomer(core, account.id, body.customer_code);
      const product = productById(body.product_id);
      if (!product) throw notFound('Gift card product');
      if (!orderable(product, amount)) {
        const allowed =
          product.denomination_type === 'fixed'
            ? `one of ${(product.denominations ?? []).join(', ')}`
            : `from ${product.min_amount} to ${product.max_amount}`;
        throw validationError(`The amount of ${product.product_id} must be ${allowed} ${product.currency}.`, [
          { field: 'amount', message: `must be ${allowed}` },
        ]);
      }
      const code = randomUUID();
      const debited = usdMinorOf(product, amount * body.quantity);
      ledger.debit(account, 'gift_cards', debited, {
        reason: 'gift_card_order',
        description: `Gift card order ${code}: ${body.quantity} x ${toAmount(amount)} ${product.currency} ${product.name}`,
        customerCode: customer.code,
        eventFields: { product: product.product_id },
      });
      insertOrder(core, {
        code,
        account_id: account.id,
        customer_code: customer.code,
        product_id: product.product_id,
        amount_minor: amount,
        quantity: body.quantity,
        debited_minor: debited,
      });
      if (!account.manual) scheduler.schedule(DELIVERY_JOB_KIND, clock.now() + core.autoCompleteMs, { order: code });
      return { data: orderOf(clock, orderByCode(core, code)!, false) };
    },

    listGiftCardOrders({ account, query }) {
      const { rows, total } = customerPage<GiftCardOrderRow>(core, account.id, 'gift_card_orders', 'code', query);
      return page(
        rows.map((r) => orderOf(clock, r, false)),
        total,
        query,
      );
    },

    getGiftCardOrder({ account, params }) {
      return { data: orderOf(clock, findOrder(core, account, params.code), true), headers: { 'Cache-Control': 'no-store' } };
    },
  };
}
