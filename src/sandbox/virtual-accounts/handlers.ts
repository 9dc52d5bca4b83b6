// Virtual accounts (tag "Virtual accounts"): EUR bank accounts for customers at the `full` verification
// level. Opening one (./opening.ts) is billed to the 'Ops Others' balance (./fees.ts). Deposits and outgoing
// transfers come from the simulation API (./rules.ts) and move the account's balance (minor units of its currency).
import type { Handlers, SandboxCore } from '../core/context.js';
import { page } from '../core/context.js';
import { customerPage } from '../customers/require.js';
import { openVirtualAccount } from './opening.js';
import { findVirtualAccount, virtualAccountOf, type VirtualAccountRow } from './repository.js';

export function virtualAccounts(core: SandboxCore): Handlers {
  const { clock } = core;
  return {
    createVirtualAccount({ account, body }) {
      const code = openVirtualAccount(core, account, body);
      return { data: virtualAccountOf(clock, findVirtualAccount(core, account, code)) };
    },

    listVirtualAccounts({ account, query }) {
      const { rows, total } = customerPage<VirtualAccountRow>(core, account.id, 'virtual_accounts', 'code', query);
      return page(
        rows.map((r) => virtualAccountOf(clock, r)),
        total,
        query,
      );
    },

    getVirtualAccount({ account, params }) {
      return { data: virtualAccountOf(clock, findVirtualAccount(core, account, params.code)) };
    },
  };
}
