// The cards' part of the simulation API (spec/sandbox.yaml): choose an issuance or top-up outcome, arm the card
// provider's next answer (a failed withdrawal, a termination that waits), complete a waiting termination, and
// make card transactions and 3-D Secure requests.
import { transactionValues } from './transaction-values.js';
import { randomInt } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { operations } from '../../../generated/sandbox.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { notFound, stateError } from '../core/errors.js';
import { toAmount, toMinor } from '../core/money.js';
import { WITHDRAWAL_FAILURE_REASON, cardEventBase, cardLifecycle } from './lifecycle.js';
import { cardOf, newTransactionId, transactionOf } from './repository.js';

export function cardSimulation(core: SandboxCore): Handlers<operations> {
  const lifecycle = cardLifecycle(core);
  const { clock, db, outbox } = core;
  return {
    simulateCardIssuance({ account, params, body }) {
      const card = lifecycle.find(account, params.code);
      return { data: cardOf(clock, lifecycle.issue(card, body)) };
    },
    simulateTopUpOutcome({ account, params, body }) {
      const topUp = lifecycle.repo.topUp(params.topup_id);
      if (!topUp || topUp.account_id !== account.id) throw notFound('Top-up');
      const done = lifecycle.completeTopUp(topUp, body);
      return { data: { topup_id: done.id, status: done.status } };
    },
    armCardWithdrawalFailure({ account, params, body }) {
      const card = lifecycle.find(account, params.code);
      const reason = body?.reason ?? WITHDRAWAL_FAILURE_REASON;
      lifecycle.armWithdrawalFailure(card, reason);
      return { data: { card_code: card.code, next: 'withdrawal_failure' as const, reason } };
    },
    armCardTerminationDelay({ account, params }) {
      const card = lifecycle.find(account, params.code);
      lifecycle.armTerminationDelay(card);
      return { data: { card_code: card.code, next: 'termination_delay' as const, reason: null } };
    },
    simulateCardTerminationOutcome({ account, params }) {
      return { data: cardOf(clock, lifecycle.completePendingTermination(lifecycle.find(account, params.code))) };
    },
    simulateCardTransaction({ account, params, body }) {
      return db.transaction(() => {
        const card = lifecycle.find(account, params.code);
        if (card.status !== 'active' && card.status !== 'frozen')
          throw stateError('card_not_usable', `This card is ${card.status}.`, card.status);
        const amount = toMinor(body.amount);
        let type: components['schemas']['CardTransactionType'] = body.type;
        let failure: string | null = body.type === 'decline' ? (body.failure_reason ?? 'declined_by_issuer') : null;
        const payment = type === 'auth' || type === 'settle';
        if (payment && card.status === 'frozen') {
          type = 'decline';
          failure = 'card_frozen';
        } else if (payment && amount > card.balance_minor) {
          type = 'decline';
          failure = 'insufficient_funds';
        }
        const delta = type === 'auth' || type === 'settle' ? -amount : type === 'refund' ? amount : 0;
        const after = card.balance_minor + delta;
        const merchant = body.merchant_name ?? 'SANDBOX MERCHANT';
        const values = transactionValues(type);
        const row = {
          id: newTransactionId(),
          card_code: card.code,
          type,
          direction: values.direction,
          status: values.status,
          amount_minor: amount,
          currency: 'USD',
          merchant_name: merchant,
          merchant_city: body.merchant_city ?? null,
          merchant_country: body.merchant_country ?? null,
          description:
            type === 'refund'
              ? `Refund from ${merchant}`
              : type === 'decline'
                ? `Declined payment at ${merchant}`
                : `Card payment at ${merchant}`,
          failure_reason: failure,
          balance_after_minor: after,
          date: clock.now(),
        };
        lifecycle.repo.setBalance(card.code, after);
        lifecycle.repo.insertTransaction(account.id, row);
        const transaction = { ...transactionOf(clock, row), type };
        outbox.emit(account, 'card.transaction', { ...cardEventBase(core, lifecycle.repo.byCode(card.code)!), transaction });
        return { data: transaction };
      });
    },
    simulateCard3dsRequest({ account, params, body }) {
      return db.transaction(() => {
        const card = lifecycle.find(account, params.code);
        if (card.status !== 'active') throw stateError('card_not_active', `This card is ${card.status}.`, card.status);
        const otp = String(randomInt(1_000_000)).padStart(6, '0');
        outbox.emit(account, 'card.3ds_request', {
          ...cardEventBase(core, card),
          otp,
          merchant_name: body.merchant_name ?? 'SANDBOX MERCHANT',
          amount: toAmount(toMinor(body.amount)).toFixed(2),
          transaction_currency: body.currency ?? 'USD',
        });
        return { data: { otp } };
      });
    },
  };
}
