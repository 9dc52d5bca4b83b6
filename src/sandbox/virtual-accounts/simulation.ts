// Virtual accounts' part of the simulation API (spec/sandbox.yaml): a deposit in, a transfer out.
import type { operations } from '../../../generated/sandbox.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { toAmount, toMinor } from '../core/money.js';
import { findVirtualAccount } from './repository.js';
import { virtualAccountMovements } from './rules.js';

export function virtualAccountSimulation(core: SandboxCore): Handlers<operations> {
  return {
    simulateVirtualAccountDeposit({ account, params, body }) {
      const va = findVirtualAccount(core, account, params.code);
      const balance = virtualAccountMovements(core).deposit(
        account,
        va,
        toMinor(body.amount),
        body.sender_name ?? null,
        body.reference ?? null,
      );
      return {
        data: {
          virtual_account_code: va.code,
          kind: 'deposit' as const,
          status: 'received' as const,
          transfer_id: null,
          reason: null,
          amount: body.amount,
          balance: toAmount(balance),
        },
      };
    },
    simulateVirtualAccountTransfer({ account, params, body }) {
      const va = findVirtualAccount(core, account, params.code);
      const fail = body.outcome === 'failed' ? (body.reason ?? 'rejected_by_bank') : undefined;
      const t = virtualAccountMovements(core).transfer(account, va, toMinor(body.amount), body.reference ?? null, fail);
      return {
        data: {
          virtual_account_code: va.code,
          kind: 'transfer' as const,
          status: t.status,
          transfer_id: t.transfer_id,
          reason: t.reason,
          amount: body.amount,
          balance: toAmount(t.balance),
        },
      };
    },
  };
}
