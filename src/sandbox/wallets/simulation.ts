// Wallets' part of the simulation API (spec/sandbox.yaml): a deposit on a wallet, a withdrawal (requested from
// the dashboard in production), and a withdrawal's on-chain outcome.
import type { operations } from '../../../generated/sandbox.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { toMicro, walletOf, withdrawalOf, withdrawalView, type WithdrawalRow } from './repository.js';
import { walletBook } from './rules.js';

export function walletSimulation(core: SandboxCore): Handlers<operations> {
  const view = (w: WithdrawalRow) => withdrawalOf(core, withdrawalView(core, w));
  return {
    simulateWalletDeposit({ account, params, body }) {
      const book = walletBook(core);
      const wallet = book.find(account, params.wallet_id);
      return { data: walletOf(core.clock, book.deposit(account, wallet, toMicro(body.amount), body.from_address, body.tx_hash)) };
    },
    simulateWalletWithdrawal({ account, params, body }) {
      const book = walletBook(core);
      const wallet = book.find(account, params.wallet_id);
      return { data: view(book.requestWithdrawal(account, wallet, toMicro(body.amount), body.to_address)) };
    },
    simulateWalletWithdrawalOutcome({ account, params, body }) {
      const book = walletBook(core);
      const withdrawal = book.withdrawal(params.code);
      if (!withdrawal || withdrawal.account_id !== account.id) throw notFound('Wallet withdrawal');
      return { data: view(book.settleWithdrawal(withdrawal, body)) };
    },
  };
}
