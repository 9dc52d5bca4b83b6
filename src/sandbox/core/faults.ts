// Simulated faults (sandbox-only, designed): `POST /sandbox/faults` arms the next N requests of one operation,
// for the account of the key, to answer a documented 500 INTERNAL_ERROR or 502 OPERATION_FAILED. A fault is
// taken by a request that has passed every shared check (key, IP allow-list, rate limit, validation, plan,
// negative balance) and answers in place of the operation: the operation does not run, so nothing changes (no
// state, no event, no debit) and, as for every 5xx, its Idempotency-Key is not kept (a retry runs).
// Armed faults are kept in memory: a restart clears them.
import { randomBytes } from 'node:crypto';
import type { components as simulation } from '../../../generated/sandbox.js';
import { faultStatusValues } from '../../../generated/sandbox-values.js';
import { type ApiError, apiError, codeOfStatus } from './errors.js';
import { copyOf, putBack } from './account-state.js';

/** The statuses a fault answers (the simulation API's `Fault.status`). */
export const FAULT_STATUSES = faultStatusValues;
export type FaultStatus = simulation['schemas']['Fault']['status'];

export interface Fault {
  id: string;
  operation_id: string;
  status: FaultStatus;
  /** The error code the contract answers with that status. */
  code: simulation['schemas']['Fault']['code'];
  /** Requests it will still answer. */
  remaining: number;
  message: string;
  created_at: number;
}

const DEFAULT_MESSAGE: Record<FaultStatus, string> = {
  500: 'The service failed unexpectedly. Try again later.',
  502: 'The operation failed at the provider. Try again later.',
};

export class Faults {
  /** Armed faults by account id, oldest first. */
  private readonly armed = new Map<number, Fault[]>();

  arm(accountId: number, fault: { operationId: string; status: FaultStatus; count: number; message?: string }, now: number): Fault {
    const armed: Fault = {
      id: `flt_${randomBytes(12).toString('hex')}`,
      operation_id: fault.operationId,
      status: fault.status,
      code: codeOfStatus(fault.status) as Fault['code'],
      remaining: fault.count,
      message: fault.message ?? DEFAULT_MESSAGE[fault.status],
      created_at: now,
    };
    this.armed.set(accountId, [...(this.armed.get(accountId) ?? []), armed]);
    return armed;
  }

  /** A copy of the armed faults of one account, or of every account (a snapshot keeps it). */
  save(accountId?: number): Map<number, Fault[]> {
    return copyOf(this.armed, accountId, (faults) => faults.map((f) => ({ ...f })));
  }

  /** Puts back what `save` copied: the faults of the account, or of every account, become those. */
  restore(saved: Map<number, Fault[]>, accountId?: number): void {
    putBack(this.armed, saved, accountId, (faults) => faults.map((f) => ({ ...f })));
  }

  list(accountId: number): Fault[] {
    return [...(this.armed.get(accountId) ?? [])];
  }

  /** Disarms every fault of the account; returns how many there were. */
  clear(accountId: number): number {
    const count = this.armed.get(accountId)?.length ?? 0;
    this.armed.delete(accountId);
    return count;
  }

  /** The error a request of this operation answers when a fault is armed for it (the oldest one), or undefined. */
  take(accountId: number, operationId: string): ApiError | undefined {
    const faults = this.armed.get(accountId);
    const fault = faults?.find((f) => f.operation_id === operationId);
    if (!faults || !fault) return undefined;
    fault.remaining--;
    if (fault.remaining === 0) {
      const left = faults.filter((f) => f !== fault);
      if (left.length > 0) this.armed.set(accountId, left);
      else this.armed.delete(accountId);
    }
    return apiError(fault.code, fault.message, null);
  }
}
