// Gift cards (tag "Gift cards", served at /api/v1): the catalogue (./catalogue.ts), and orders that debit
// `gift_cards` with amount x quantity (in USD: a EUR product's at the fixed rate). An order and its outcomes
// are in ./rules.ts, the rows in ./repository.ts.
import type { Handlers, SandboxCore } from '../core/context.js';
import { page, pageWindow } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { requestAmountMinor } from '../core/money.js';
import { customerPage } from '../customers/require.js';
import { CATALOGUE, productById } from './catalogue.js';
import { findOrder, orderOf, type GiftCardOrderRow } from './repository.js';
import { giftCardOrders } from './rules.js';

export function giftCards(core: SandboxCore): Handlers {
  const { clock } = core;
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
      return { data: orderOf(clock, orders.order(account, body, amount), false) };
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
