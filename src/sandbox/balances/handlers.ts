// Ops balances (tag "Balances"): list, get, transactions. The low balance check is in ./rules.ts, the shapes
// and the transactions' query in ./repository.ts.
import type { BalanceType } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow } from '../core/context.js';
import { apiError } from '../core/errors.js';
import { balanceOf, balanceTransactions } from './repository.js';

/** 404 for a balance type the account does not hold (an account whose products do not include it). */
function assertHeld(core: SandboxCore, accountId: number, type: string): void {
  if (!core.products.holds(accountId, type)) {
    throw apiError(
      'RESOURCE_NOT_FOUND',
      `This account holds no ${type} balance: the products of its subscription do not include it.`,
      null,
    );
  }
}

export function balances(core: SandboxCore): Handlers {
  const { ledger } = core;
  return {
    listBalances({ account }) {
      return {
        data: ledger
          .balances(account.id)
          .filter((r) => core.products.holds(account.id, r.type))
          .map((r) => balanceOf(core, r)),
      };
    },
    getBalance({ account, params }) {
      assertHeld(core, account.id, params.type);
      return { data: balanceOf(core, ledger.balance(account.id, params.type as BalanceType)) };
    },
    listBalanceTransactions({ account, params, query }) {
      assertHeld(core, account.id, params.type);
      const [from, to] = createdRange(query);
      const [limit, offset] = pageWindow(query);
      const { rows, total } = balanceTransactions(core, account.id, params.type, { from, to, limit, offset });
      return page(rows, total, query);
    },
  };
}
