// A withdrawal from an active card to the brand's ops balance, at once: the contract's floor stays on the card,
// the plan's fee is kept, and a failure the simulation API armed is the provider's (502, nothing moves).
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { apiError, providerFailed } from '../core/errors.js';
import { contractLimits } from '../core/limits.js';
import { formatAmount, toAmount } from '../core/money.js';
import { WITHDRAWAL_FEE_MINOR } from './fees.js';
import { cardEventBase, cardEventIn, cardLifecycle } from './lifecycle.js';
import { balanceTypeOf, newTransactionId, type CardRow } from './repository.js';
import { notActive } from './status.js';
import { transactionValues } from './transaction-values.js';

/** 400 INSUFFICIENT_BALANCE unless `amountMinor` leaves the contract's floor on the card. */
function checkWithdrawable(card: CardRow, amountMinor: number): void {
  // `required` is the amount asked, `available` the most that can be withdrawn now (the balance less what must remain).
  const floor = contractLimits().cardWithdrawalFloorMinor;
  const withdrawable = Math.max(0, card.balance_minor - floor);
  if (amountMinor > withdrawable) {
    throw apiError(
      'INSUFFICIENT_BALANCE',
      `At least ${formatAmount(floor)} USD must remain on the card: you can withdraw up to ${formatAmount(withdrawable)} USD.`,
      {
        required: toAmount(amountMinor),
        available: toAmount(withdrawable),
        balance_type: 'card',
        card_code: card.code,
        reason: 'card_balance_too_low',
      },
    );
  }
}

/** Withdraws `amountMinor` from the card: its transaction, the net credited, `card.withdrawal.completed`. */
export function withdrawFromCard(
  core: SandboxCore,
  account: Account,
  card: CardRow,
  amountMinor: number,
): components['schemas']['CardWithdrawal'] {
  const { clock, ledger, outbox } = core;
  const lifecycle = cardLifecycle(core);
  if (card.status !== 'active') throw notActive(card, 'withdrawn from');
  checkWithdrawable(card, amountMinor);
  const failure = lifecycle.takeWithdrawalFailure(card);
  if (failure !== undefined) {
    // The card provider failed it: the event is sent and kept, nothing moves, and the answer is a 502.
    outbox.emit(account, 'card.withdrawal.failed', { ...cardEventBase(core, card), amount: toAmount(amountMinor), reason: failure });
    throw providerFailed(`The card provider failed the withdrawal (${failure}): nothing was withdrawn. A new request is a new withdrawal.`);
  }
  const fee = WITHDRAWAL_FEE_MINOR[account.plan];
  const net = amountMinor - fee;
  const after = card.balance_minor - amountMinor;
  const id = newTransactionId();
  const credited = balanceTypeOf(card.brand);
  lifecycle.repo.setBalance(card.code, after);
  const values = transactionValues('withdrawal');
  if (values.merchant_name === undefined) throw new Error("the contract's CardTransaction x-type-values gives withdrawal no merchant_name");
  lifecycle.repo.insertTransaction(account.id, {
    id,
    card_code: card.code,
    type: 'withdrawal',
    direction: values.direction,
    status: values.status,
    amount_minor: amountMinor,
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
  const amounts = { amount: toAmount(amountMinor), fee: toAmount(fee), net_amount: toAmount(net), credited_balance: credited };
  outbox.emit(account, 'card.withdrawal.completed', {
    ...cardEventIn(core, { ...card, balance_minor: after }, 'active'),
    withdrawal_id: id,
    ...amounts,
  });
  return {
    card_code: card.code,
    withdrawal_id: id,
    status: 'completed' as const,
    ...amounts,
    card_balance: toAmount(after),
    currency: 'USD' as const,
  };
}
