// Wallets (tag "Wallets"): crypto collection addresses (USDC, USDT) for customers, and the read-only list of
// withdrawals, which are requested from the partner dashboard only (in the sandbox: the simulation API). The
// state changes are in ./rules.ts, the rows and shapes in ./repository.ts, the fees in ./fees.ts.
import { randomBytes } from 'node:crypto';
import type { Handlers, SandboxCore } from '../core/context.js';
import { page, pageWindow } from '../core/context.js';
import { customerPage, requireActiveCustomer } from '../customers/require.js';
import { insertWallet, newAddress, walletById, walletOf, withdrawalOf, withdrawalPage, type WalletRow } from './repository.js';
import { DEFAULT_NETWORK } from './rules.js';

export function wallets(core: SandboxCore): Handlers {
  const { clock } = core;
  return {
    createWallet({ account, body }) {
      const customer = requireActiveCustomer(core, account.id, body.customer_code);
      const network = body.network ?? DEFAULT_NETWORK[body.currency];
      const id = `wal_${randomBytes(12).toString('hex')}`;
      insertWallet(core, {
        id,
        account_id: account.id,
        customer_code: customer.code,
        currency: body.currency,
        network,
        address: newAddress(network),
      });
      return { data: walletOf(clock, walletById(core, id)!) };
    },

    listWallets({ account, query }) {
      const { rows, total } = customerPage<WalletRow>(core, account.id, 'wallets', 'id', query);
      return page(
        rows.map((r) => walletOf(clock, r)),
        total,
        query,
      );
    },

    listWalletWithdrawals({ account, query }) {
      const [limit, offset] = pageWindow(query);
      const { rows, total } = withdrawalPage(core, account.id, limit, offset);
      return page(
        rows.map((r) => withdrawalOf(core, r)),
        total,
        query,
      );
    },
  };
}
