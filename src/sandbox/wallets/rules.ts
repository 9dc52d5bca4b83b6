// The wallets' state changes, shared by the partner API and the simulation API: a deposit on a wallet's address,
// and withdrawals (requested from the partner dashboard only; in the sandbox, the simulation API) that complete
// or fail on chain.
import { randomUUID } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import { perCore, type SandboxCore } from '../core/context.js';
import { apiError, notFound, validationError } from '../core/errors.js';
import { defineJob } from '../core/scheduler.js';
import { NETWORK_FEE_MICRO, WITHDRAWAL_COMMISSION_PERCENT } from './fees.js';
import {
  accountWallet,
  addToWalletBalance,
  fromMicro,
  insertWithdrawal,
  markWithdrawalCompleted,
  markWithdrawalFailed,
  newAddress,
  newTxHash,
  updateWalletBalance,
  withdrawalByCode,
  type WalletRow,
  type WithdrawalRow,
} from './repository.js';

/** The automatic outcome of a withdrawal on chain: completed. */
export const WITHDRAWAL_JOB = defineJob<{ withdrawal: string }>(
  'wallet.withdrawal',
  (core, { withdrawal }) => {
    const book = walletBook(core);
    const w = book.withdrawal(withdrawal);
    if (w?.status === 'processing') book.settleWithdrawal(w, { outcome: 'completed' });
  },
  { automatic: true },
);
/** The network of a wallet created without one (provisional). */
export const DEFAULT_NETWORK = { USDC: 'ethereum', USDT: 'tron' } as const;

export class WalletBook {
  private readonly core: SandboxCore;

  constructor(core: SandboxCore) {
    this.core = core;
  }

  find(account: Account, id: string): WalletRow {
    const row = accountWallet(this.core, account.id, id);
    if (!row) throw notFound('Wallet');
    return row;
  }

  withdrawal(code: string): WithdrawalRow | undefined {
    return withdrawalByCode(this.core, code);
  }

  private eventBase(w: WalletRow, amountMicro: number) {
    return { wallet_id: w.id, customer_code: w.customer_code, amount: fromMicro(amountMicro), currency: w.currency, network: w.network };
  }

  /** A confirmed deposit on the wallet's address: the balance grows, `wallet.deposit_received` is sent. */
  deposit(account: Account, wallet: WalletRow, amountMicro: number, from: string | undefined, txHash: string | undefined): WalletRow {
    const { db, clock, outbox } = this.core;
    return db.transaction(() => {
      const after = wallet.balance_micro + amountMicro;
      updateWalletBalance(this.core, wallet.id, after);
      outbox.emit(account, 'wallet.deposit_received', {
        ...this.eventBase(wallet, amountMicro),
        tx_hash: txHash ?? newTxHash(),
        from_address: from ?? newAddress(wallet.network),
        new_balance: fromMicro(after),
        confirmed_at: clock.iso(),
      });
      return this.find(account, wallet.id);
    });
  }

  /**
   * A withdrawal requested from the dashboard: `processing`, the amount taken from the wallet at once; it
   * completes by itself unless the account is manual. More than the wallet holds fails at once.
   */
  requestWithdrawal(account: Account, wallet: WalletRow, amountMicro: number, toAddress: string): WithdrawalRow {
    const { db, clock, scheduler } = this.core;
    const commission = Math.round((amountMicro * WITHDRAWAL_COMMISSION_PERCENT) / 100);
    if (amountMicro <= commission + NETWORK_FEE_MICRO) {
      throw validationError(`The amount must exceed the fees (${fromMicro(commission + NETWORK_FEE_MICRO)} ${wallet.currency}).`, [
        { field: 'amount', message: 'must be more than the withdrawal fees' },
      ]);
    }
    return db.transaction(() => {
      const code = randomUUID();
      insertWithdrawal(this.core, {
        code,
        account_id: account.id,
        wallet_id: wallet.id,
        amount_micro: amountMicro,
        commission_micro: commission,
        network_fee_micro: NETWORK_FEE_MICRO,
        to_address: toAddress,
        tx_id: newTxHash(),
        requested_at: clock.now(),
      });
      const row = this.withdrawal(code)!;
      if (amountMicro > wallet.balance_micro) return this.fail(account, wallet, row, 'insufficient_balance', false);
      addToWalletBalance(this.core, wallet.id, -amountMicro);
      if (!account.manual) scheduler.schedule(WITHDRAWAL_JOB, clock.now() + this.core.autoCompleteMs, { withdrawal: code });
      return row;
    });
  }

  /** The on-chain outcome of a processing withdrawal; a failure returns the amount to the wallet. */
  settleWithdrawal(withdrawal: WithdrawalRow, choice: { outcome: 'completed' | 'failed'; reason?: string }): WithdrawalRow {
    const { db, clock, outbox, accounts } = this.core;
    return db.transaction(() => {
      const current = this.withdrawal(withdrawal.code)!;
      if (current.status !== 'processing')
        throw apiError('VALIDATION_ERROR', `The withdrawal is already ${current.status}.`, { fields: [], current_status: current.status });
      const account = accounts.byId(current.account_id);
      const wallet = this.find(account, current.wallet_id);
      if (choice.outcome === 'failed') return this.fail(account, wallet, current, choice.reason ?? 'provider_error', true);
      markWithdrawalCompleted(this.core, current.code);
      outbox.emit(account, 'wallet.withdrawal_completed', {
        ...this.eventBase(wallet, current.amount_micro),
        tx_hash: current.tx_id,
        to_address: current.to_address,
        new_balance: fromMicro(wallet.balance_micro),
        completed_at: clock.iso(),
      });
      return this.withdrawal(current.code)!;
    });
  }

  /** Marks a withdrawal failed and sends `wallet.withdrawal_failed`; `refund` returns the amount it took. */
  private fail(account: Account, wallet: WalletRow, w: WithdrawalRow, reason: string, refund: boolean): WithdrawalRow {
    const { clock, outbox } = this.core;
    if (refund) addToWalletBalance(this.core, wallet.id, w.amount_micro);
    markWithdrawalFailed(this.core, w.code, reason);
    outbox.emit(account, 'wallet.withdrawal_failed', {
      ...this.eventBase(wallet, w.amount_micro),
      to_address: w.to_address,
      reason,
      failed_at: clock.iso(),
    });
    return this.withdrawal(w.code)!;
  }
}

export const walletBook = perCore((core) => new WalletBook(core));
