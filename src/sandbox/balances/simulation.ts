// The ops balances' part of the simulation API (spec/sandbox.yaml): set a balance or its low threshold, and
// confirm a deposit (`balance.deposit_confirmed`, a gift card redemption among them).
import type { operations } from '../../../generated/sandbox.js';
import type { BalanceType } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { apiError } from '../core/errors.js';
import { toAmount, toMinor } from '../core/money.js';
import { balanceOf } from './repository.js';

export function balanceSimulation(core: SandboxCore): Handlers<operations> {
  const { db, ledger, outbox } = core;
  return {
    setBalance({ account, params, body }) {
      const type = params.type as BalanceType;
      db.transaction(() => {
        if (body.low_balance_threshold !== undefined) ledger.setThreshold(account.id, type, toMinor(body.low_balance_threshold));
        if (body.balance !== undefined) ledger.set(account, type, toMinor(body.balance));
      });
      return { data: balanceOf(core, ledger.balance(account.id, type)) };
    },
    simulateBalanceDeposit({ account, params, body }) {
      const type = params.type as BalanceType;
      const gross = toMinor(body.gross_amount);
      const fee = toMinor(body.fee ?? 0);
      if (fee >= gross) {
        throw apiError('VALIDATION_ERROR', 'The fee must be less than the gross amount.', {
          fields: [{ field: 'fee', message: 'must be less than gross_amount' }],
        });
      }
      db.transaction(() => {
        const source =
          body.gift_card_code !== undefined ? { type: 'gift_card_redemption', gift_card_code: body.gift_card_code } : undefined;
        ledger.credit(account, type, gross - fee, {
          reason: source ? 'gift_card_redemption' : 'deposit',
          description: source ? `Gift card ${body.gift_card_code} redeemed` : 'Deposit (sandbox simulation)',
        });
        outbox.emit(account, 'balance.deposit_confirmed', {
          balance_type: type,
          gross_amount: toAmount(gross),
          fee: toAmount(fee),
          amount: toAmount(gross - fee),
          ...(source ? { source } : {}),
        });
      });
      return { data: balanceOf(core, ledger.balance(account.id, type)) };
    },
  };
}
