// Cards (tag "Cards"): create, list, get, top-up, freeze, unfreeze, withdraw, terminate, sensitive data,
// transactions. Each operation's rules are in its spec file (spec/paths/cards*.yaml) and in a module of its
// name: ./issuance.ts, ./top-up.ts, ./withdrawal.ts, ./status.ts (freeze, unfreeze, what a status allows);
// the asynchronous outcomes in ./lifecycle.ts, the rows and shapes in ./repository.ts.
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { requestAmountMinor } from '../core/money.js';
import { findCustomer } from '../customers/repository.js';
import { issueCard } from './issuance.js';
import { cardLifecycle } from './lifecycle.js';
import { cardOf, topUpOf, transactionOf } from './repository.js';
import { checkSensitiveDataShown, checkTerminable, freezeCard, unfreezeCard } from './status.js';
import { topUpCard } from './top-up.js';
import { withdrawFromCard } from './withdrawal.js';

function cardHandlers(core: SandboxCore): Handlers {
  const lifecycle = cardLifecycle(core);
  const { clock } = core;
  return {
    createCard({ account, body }) {
      const amount = requestAmountMinor('amount', body.amount);
      return { data: cardOf(clock, issueCard(core, account, body, amount)) };
    },

    listCards({ account, query }) {
      if (query.customer_code && !findCustomer(core, account.id, query.customer_code)) throw notFound('Customer');
      const [limit, offset] = pageWindow(query);
      const { rows, total } = lifecycle.repo.list(account.id, query.customer_code, limit, offset);
      return page(
        rows.map((r) => cardOf(clock, r)),
        total,
        query,
      );
    },

    getCard({ account, params }) {
      return { data: cardOf(clock, lifecycle.find(account, params.code)) };
    },

    freezeCard({ account, params }) {
      return { data: cardOf(clock, freezeCard(core, account, lifecycle.find(account, params.code))) };
    },

    unfreezeCard({ account, params }) {
      return { data: cardOf(clock, unfreezeCard(core, account, lifecycle.find(account, params.code))) };
    },

    terminateCard({ account, params }) {
      const card = lifecycle.find(account, params.code);
      checkTerminable(card);
      return { data: lifecycle.terminate(account, card) };
    },

    getCardSensitiveData({ account, params }) {
      const card = lifecycle.find(account, params.code);
      checkSensitiveDataShown(card);
      return {
        data: { card_code: card.code, number: card.pan!, cvv: card.cvv!, expiry: card.expiry! },
        headers: { 'Cache-Control': 'no-store' },
      };
    },
  };
}

function moneyHandlers(core: SandboxCore): Handlers {
  const lifecycle = cardLifecycle(core);
  const { clock } = core;
  return {
    topUpCard({ account, params, body }) {
      const amount = requestAmountMinor('amount', body.amount);
      const card = lifecycle.find(account, params.code);
      const topUp = topUpCard(core, account, card, amount);
      return { data: { ...topUpOf(clock, card, topUp, null), status: 'pending' as const, created_at: clock.iso(clock.now()) } };
    },

    getCardTopUp({ account, params }) {
      const card = lifecycle.find(account, params.code);
      const topUp = lifecycle.repo.topUp(params.topupId);
      if (!topUp || topUp.card_code !== card.code) throw notFound('Top-up');
      const reason = topUp.status === 'failed' ? (lifecycle.repo.topUpFailureReason(topUp.id) ?? null) : null;
      return { data: topUpOf(clock, card, topUp, reason) };
    },

    withdrawFromCard({ account, params, body }) {
      const amount = requestAmountMinor('amount', body.amount);
      return { data: withdrawFromCard(core, account, lifecycle.find(account, params.code), amount) };
    },

    listCardTransactions({ account, params, query }) {
      const card = lifecycle.find(account, params.code);
      const [from, to] = createdRange(query);
      const [limit, offset] = pageWindow(query);
      const { rows, total } = lifecycle.repo.transactions(account.id, card.code, limit, offset, from, to);
      return page(
        rows.map((r) => transactionOf(clock, r)),
        total,
        query,
      );
    },
  };
}

export function cards(core: SandboxCore): Handlers {
  return { ...cardHandlers(core), ...moneyHandlers(core) };
}
