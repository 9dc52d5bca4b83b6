// The movements of a virtual account (the simulation API makes them): deposits in, transfers out, each with its
// event, in one transaction.
import { randomUUID } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { toAmount } from '../core/money.js';
import { setVirtualAccountBalance, type VirtualAccountRow } from './repository.js';

export function virtualAccountMovements(core: SandboxCore) {
  const { db, clock, outbox } = core;
  const base = (va: VirtualAccountRow, minor: number) => ({
    virtual_account_code: va.code,
    customer_code: va.customer_code,
    amount: toAmount(minor),
    currency: va.currency,
  });
  return {
    deposit(account: Account, va: VirtualAccountRow, minor: number, sender: string | null, reference: string | null): number {
      return db.transaction(() => {
        const after = va.balance_minor + minor;
        setVirtualAccountBalance(core, va.code, after);
        outbox.emit(account, 'virtual_account.deposit_received', {
          ...base(va, minor),
          sender_name: sender,
          reference,
          received_at: clock.iso(),
        });
        return after;
      });
    },
    /** An outgoing transfer: completed when the balance covers it and `failed` is not chosen; else failed. */
    transfer(
      account: Account,
      va: VirtualAccountRow,
      minor: number,
      reference: string | null,
      fail?: string,
    ): { transfer_id: string; status: 'completed' | 'failed'; reason: string | null; balance: number } {
      return db.transaction(() => {
        const transferId = `vat_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
        const reason = fail ?? (minor > va.balance_minor ? 'insufficient_funds' : null);
        if (reason !== null) {
          outbox.emit(account, 'virtual_account.transfer_failed', {
            ...base(va, minor),
            transfer_id: transferId,
            reference,
            reason,
            failed_at: clock.iso(),
          });
          return { transfer_id: transferId, status: 'failed' as const, reason, balance: va.balance_minor };
        }
        const after = va.balance_minor - minor;
        setVirtualAccountBalance(core, va.code, after);
        outbox.emit(account, 'virtual_account.transfer_completed', {
          ...base(va, minor),
          transfer_id: transferId,
          reference,
          completed_at: clock.iso(),
        });
        return { transfer_id: transferId, status: 'completed' as const, reason: null, balance: after };
      });
    },
  };
}
