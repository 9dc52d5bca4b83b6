// Cards (tag "Cards"): create, list, get, top-up, freeze, unfreeze, withdraw, terminate, sensitive data,
// transactions. Each operation's rules are in its spec file (spec/paths/cards*.yaml); the asynchronous outcomes
// in ./lifecycle.ts, the rows in ./repository.ts, the fees the document does not give in ./fees.ts.
import { randomUUID } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow } from '../core/context.js';
import { apiError, notFound, planLimitReached, planUpgradeRequired, providerFailed, stateError } from '../core/errors.js';
import { contractLimits, forPlan } from '../core/limits.js';
import { formatAmount, requestAmountMinor, toAmount } from '../core/money.js';
import { addUsage, periodOf, usage } from '../core/usage.js';
import { findCustomer } from '../customers/repository.js';
import { requireActiveCustomer } from '../customers/require.js';
import { defaultNameOnCard } from './name-on-card.js';
import { transactionValues } from './transaction-values.js';
import { CARD_FEE_MINOR, PRODUCT_CODES, SERVICE_FEE_MINOR, WITHDRAWAL_FEE_MINOR, topUpFeeMinor } from './fees.js';
import { ISSUE_JOB, TOPUP_JOB, cardEventBase, cardEventIn, cardLifecycle } from './lifecycle.js';
import { balanceTypeOf, cardOf, newTransactionId, transactionOf, type CardRow } from './repository.js';

/** The plan's limit of USD loaded on cards per calendar month (the contract's; Découverte only). */
function checkLoadedLimit(core: SandboxCore, account: Account, minor: number): void {
  const limit = forPlan(contractLimits().loadedOnCardsPerMonthMinor, account.plan);
  if (limit === null) return;
  const loaded = usage(core.db, account.id, periodOf(core.clock.now()), 'usd_loaded_minor');
  if (loaded + minor > limit) {
    throw planLimitReached(`Your plan allows ${formatAmount(limit)} USD loaded on cards per calendar month.`, {
      limit: 'usd_loaded_per_month',
      allowed: toAmount(limit),
      used: toAmount(loaded),
    });
  }
}

const notActive = (card: CardRow, action: string) =>
  stateError('card_not_active', `Only an active card can be ${action}; this card is ${card.status}.`, card.status);

export function cards(core: SandboxCore): Handlers {
  const lifecycle = cardLifecycle(core);
  const { repo } = lifecycle;
  const { db, clock, ledger, outbox } = core;

  return {
    createCard({ account, body }) {
      const amount = requestAmountMinor('amount', body.amount);
      const customer = requireActiveCustomer(core, account.id, body.customer_code);
      if (account.plan === 'decouverte' && body.category === 'physical')
        throw planUpgradeRequired('The plan Découverte gives virtual cards only.');
      const period = periodOf(clock.now());
      const createdLimit = forPlan(contractLimits().cardsCreatedPerMonth, account.plan);
      const created = usage(db, account.id, period, 'cards_created');
      if (createdLimit !== null && created >= createdLimit) {
        throw planLimitReached(`Your plan allows ${createdLimit} cards created per calendar month.`, {
          limit: 'cards_created_per_month',
          allowed: createdLimit,
          used: created,
        });
      }
      checkLoadedLimit(core, account, amount);
      const card: CardRow = {
        code: randomUUID(),
        account_id: account.id,
        customer_code: customer.code,
        product_code: PRODUCT_CODES[body.brand][body.category],
        brand: body.brand,
        category: body.category,
        name_on_card: body.name_on_card ?? defaultNameOnCard(customer.first_name, customer.last_name),
        status: 'pending',
        balance_minor: 0,
        initial_load_minor: amount,
        card_fee_minor: CARD_FEE_MINOR[body.category],
        service_fee_minor: SERVICE_FEE_MINOR,
        last_four: null,
        expiry: null,
        pan: null,
        cvv: null,
        created_at: clock.now(),
      };
      const total = amount + card.card_fee_minor + card.service_fee_minor;
      ledger.debit(account, balanceTypeOf(card.brand), total, {
        reason: 'card_issuance',
        description: `Card ${card.code}: initial load and fees`,
        customerCode: customer.code,
        eventFields: { brand: card.brand, product: card.category },
      });
      repo.insert(card);
      addUsage(db, account.id, period, 'cards_created', 1);
      addUsage(db, account.id, period, 'usd_loaded_minor', amount);
      lifecycle.scheduleAuto(account, ISSUE_JOB, { card: card.code });
      return { data: cardOf(clock, card) };
    },

    listCards({ account, query }) {
      if (query.customer_code && !findCustomer(core, account.id, query.customer_code)) throw notFound('Customer');
      const [limit, offset] = pageWindow(query);
      const { rows, total } = repo.list(account.id, query.customer_code, limit, offset);
      return page(
        rows.map((r) => cardOf(clock, r)),
        total,
        query,
      );
    },

    getCard({ account, params }) {
      return { data: cardOf(clock, lifecycle.find(account, params.code)) };
    },

    topUpCard({ account, params, body }) {
      const amount = requestAmountMinor('amount', body.amount);
      const card = lifecycle.find(account, params.code);
      if (card.status !== 'active') throw notActive(card, 'topped up');
      requireActiveCustomer(core, account.id, card.customer_code);
      checkLoadedLimit(core, account, amount);
      const fee = topUpFeeMinor(amount);
      const balanceType = balanceTypeOf(card.brand);
      ledger.debit(account, balanceType, amount + fee, {
        reason: 'card_topup',
        description: `Top-up of card ${card.code}`,
        customerCode: card.customer_code,
        eventFields: { brand: card.brand },
      });
      const id = randomUUID();
      repo.insertTopUp({
        id,
        account_id: account.id,
        card_code: card.code,
        amount_minor: amount,
        fee_minor: fee,
        status: 'pending',
        created_at: clock.now(),
      });
      addUsage(db, account.id, periodOf(clock.now()), 'usd_loaded_minor', amount);
      lifecycle.scheduleAuto(account, TOPUP_JOB, { topup: id });
      return {
        data: {
          card_code: card.code,
          topup_id: id,
          status: 'pending' as const,
          amount: toAmount(amount),
          fee: toAmount(fee),
          total_debited: toAmount(amount + fee),
          debited_balance: balanceType,
          currency: 'USD' as const,
          failure_reason: null,
          refunded_amount: null,
          created_at: clock.iso(clock.now()),
        },
      };
    },

    getCardTopUp({ account, params }) {
      const card = lifecycle.find(account, params.code);
      const topUp = repo.topUp(params.topupId);
      if (!topUp || topUp.card_code !== card.code) throw notFound('Top-up');
      const failed = topUp.status === 'failed';
      const reason = failed ? (repo.topUpFailureReason(topUp.id) ?? null) : null;
      return {
        data: {
          card_code: card.code,
          topup_id: topUp.id,
          status: topUp.status,
          amount: toAmount(topUp.amount_minor),
          fee: toAmount(topUp.fee_minor),
          total_debited: toAmount(topUp.amount_minor + topUp.fee_minor),
          debited_balance: balanceTypeOf(card.brand),
          currency: 'USD' as const,
          failure_reason: reason,
          refunded_amount: failed ? toAmount(topUp.amount_minor + topUp.fee_minor) : null,
          created_at: clock.iso(topUp.created_at),
        },
      };
    },

    freezeCard({ account, params }) {
      const card = lifecycle.find(account, params.code);
      if (card.status !== 'active') throw notActive(card, 'frozen');
      repo.setStatus(card.code, 'frozen');
      const frozen = repo.byCode(card.code)!;
      outbox.emit(account, 'card.frozen', cardEventIn(core, frozen, 'frozen'));
      return { data: cardOf(clock, frozen) };
    },

    unfreezeCard({ account, params }) {
      const card = lifecycle.find(account, params.code);
      if (card.status !== 'frozen')
        throw stateError('card_not_frozen', `Only a frozen card can be unfrozen; this card is ${card.status}.`, card.status);
      repo.setStatus(card.code, 'active');
      const active = repo.byCode(card.code)!;
      outbox.emit(account, 'card.unfrozen', cardEventIn(core, active, 'active'));
      return { data: cardOf(clock, active) };
    },

    withdrawFromCard({ account, params, body }) {
      const amount = requestAmountMinor('amount', body.amount);
      const card = lifecycle.find(account, params.code);
      if (card.status !== 'active') throw notActive(card, 'withdrawn from');
      // `required` is the amount asked, `available` the most that can be withdrawn now (the balance less what must remain).
      const floor = contractLimits().cardWithdrawalFloorMinor;
      const withdrawable = Math.max(0, card.balance_minor - floor);
      if (amount > withdrawable) {
        throw apiError(
          'INSUFFICIENT_BALANCE',
          `At least ${formatAmount(floor)} USD must remain on the card: you can withdraw up to ${formatAmount(withdrawable)} USD.`,
          {
            required: toAmount(amount),
            available: toAmount(withdrawable),
            balance_type: 'card',
            card_code: card.code,
            reason: 'card_balance_too_low',
          },
        );
      }
      const failure = lifecycle.takeWithdrawalFailure(card);
      if (failure !== undefined) {
        // The card provider failed it: the event is sent and kept, nothing moves, and the answer is a 502.
        outbox.emit(account, 'card.withdrawal.failed', { ...cardEventBase(core, card), amount: toAmount(amount), reason: failure });
        throw providerFailed(
          `The card provider failed the withdrawal (${failure}): nothing was withdrawn. A new request is a new withdrawal.`,
        );
      }
      const fee = WITHDRAWAL_FEE_MINOR[account.plan];
      const net = amount - fee;
      const after = card.balance_minor - amount;
      const id = newTransactionId();
      const credited = balanceTypeOf(card.brand);
      repo.setBalance(card.code, after);
      const values = transactionValues('withdrawal');
      if (values.merchant_name === undefined)
        throw new Error("the contract's CardTransaction x-type-values gives withdrawal no merchant_name");
      repo.insertTransaction(account.id, {
        id,
        card_code: card.code,
        type: 'withdrawal',
        direction: values.direction,
        status: values.status,
        amount_minor: amount,
        currency: 'USD',
        merchant_name: values.merchant_name,
        merchant_city: values.merchant_city ?? null,
        merchant_country: values.merchant_country ?? null,
        description: `Withdrawal to the ${credited} balance`,
        failure_reason: null,
        balance_after_minor: after,
        date: clock.now(),
      });
      ledger.credit(account, credited, net, {
        reason: 'card_withdrawal',
        description: `Withdrawal ${id} from card ${card.code}, net of the ${toAmount(fee)} USD fee`,
        customerCode: card.customer_code,
      });
      outbox.emit(account, 'card.withdrawal.completed', {
        ...cardEventIn(core, { ...card, balance_minor: after }, 'active'),
        withdrawal_id: id,
        amount: toAmount(amount),
        fee: toAmount(fee),
        net_amount: toAmount(net),
        credited_balance: credited,
      });
      return {
        data: {
          card_code: card.code,
          withdrawal_id: id,
          status: 'completed' as const,
          amount: toAmount(amount),
          fee: toAmount(fee),
          net_amount: toAmount(net),
          credited_balance: credited,
          card_balance: toAmount(after),
          currency: 'USD' as const,
        },
      };
    },

    terminateCard({ account, params }) {
      const card = lifecycle.find(account, params.code);
      if (card.status !== 'active' && card.status !== 'frozen')
        throw stateError('card_not_usable', `Only an active or frozen card can be terminated; this card is ${card.status}.`, card.status);
      return { data: lifecycle.terminate(account, card) };
    },

    getCardSensitiveData({ account, params }) {
      const card = lifecycle.find(account, params.code);
      if (card.status !== 'active' && card.status !== 'frozen')
        throw stateError(
          'card_not_usable',
          `Sensitive data exists only for an active or frozen card; this card is ${card.status}.`,
          card.status,
        );
      return {
        data: { card_code: card.code, number: card.pan!, cvv: card.cvv!, expiry: card.expiry! },
        headers: { 'Cache-Control': 'no-store' },
      };
    },

    listCardTransactions({ account, params, query }) {
      const card = lifecycle.find(account, params.code);
      const [from, to] = createdRange(query);
      const [limit, offset] = pageWindow(query);
      const { rows, total } = repo.transactions(account.id, card.code, limit, offset, from, to);
      return page(
        rows.map((r) => transactionOf(clock, r)),
        total,
        query,
      );
    },
  };
}
