// The ops balances' contract shapes and their transactions in the store. The balances and the movements
// themselves are the core's ledger (core/ledger.ts), which every product moves money through.
import type { components } from '../../../generated/openapi.js';
import type { SandboxCore } from '../core/context.js';
import type { BalanceRow } from '../core/ledger.js';
import { toAmount } from '../core/money.js';

interface TransactionRow {
  id: string;
  balance_type: string;
  direction: 'debit' | 'credit';
  amount_minor: number;
  balance_after_minor: number;
  reason: string;
  description: string;
  customer_code: string | null;
  created_at: number;
}

export function balanceOf(core: SandboxCore, r: BalanceRow): components['schemas']['Balance'] {
  return {
    type: r.type,
    balance: toAmount(r.minor),
    currency: 'USD',
    lowBalanceThreshold: toAmount(r.low_threshold_minor),
    negative_balance_since: r.negative_since === null ? null : core.clock.iso(r.negative_since),
    updated_at: core.clock.iso(r.updated_at),
  };
}

/** One page of a balance's transactions created in [from, to), most recent first. */
export function balanceTransactions(
  core: SandboxCore,
  accountId: number,
  type: string,
  window: { from: number; to: number; limit: number; offset: number },
): { rows: components['schemas']['BalanceTransaction'][]; total: number } {
  const { db, clock } = core;
  const where = 'account_id = ? AND balance_type = ? AND created_at >= ? AND created_at < ?';
  const rows = db.all<TransactionRow>(
    `SELECT * FROM balance_transactions WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    accountId,
    type,
    window.from,
    window.to,
    window.limit,
    window.offset,
  );
  const total = db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM balance_transactions WHERE ${where}`,
    accountId,
    type,
    window.from,
    window.to,
  )!.n;
  return {
    rows: rows.map((r) => ({
      id: r.id,
      balance_type: r.balance_type as components['schemas']['BalanceType'],
      direction: r.direction,
      amount: toAmount(r.amount_minor),
      currency: 'USD' as const,
      balance_after: toAmount(r.balance_after_minor),
      reason: r.reason,
      description: r.description,
      customer_code: r.customer_code,
      created_at: clock.iso(r.created_at),
    })),
    total,
  };
}

/** The accounts that have no job of `kind` yet, in the order they were made. */
export function accountsWithoutJob(core: SandboxCore, kind: string): number[] {
  return core.db
    .all<{ id: number }>('SELECT id FROM accounts WHERE id NOT IN (SELECT account_id FROM jobs WHERE kind = ?) ORDER BY id', kind)
    .map((r) => r.id);
}
