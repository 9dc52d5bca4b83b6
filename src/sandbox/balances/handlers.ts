// Ops balances (tag "Balances"): list, get, transactions; and the 4-hourly low balance check.
import type { components } from '../../../generated/openapi.js';
import type { BalanceType } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow } from '../core/context.js';
import { apiError } from '../core/errors.js';
import type { BalanceRow } from '../core/ledger.js';
import { toAmount } from '../core/money.js';

export const LOW_BALANCE_CHECK_JOB = 'balance.low_balance_check';
export const LOW_BALANCE_CHECK_EVERY_MS = 4 * 3_600_000;

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

/** 404 for a balance type the account does not hold (an account whose products do not include it). */
function assertHeld(core: SandboxCore, accountId: number, type: string): void {
  if (!core.products.holds(accountId, type)) {
    throw apiError('RESOURCE_NOT_FOUND', `This account holds no ${type} balance: the products of its subscription do not include it.`, null);
  }
}

export function balances(core: SandboxCore): Handlers {
  const { db, clock, ledger, scheduler } = core;

  // Every 4 hours of the clock: `balance.low_balance` for each balance below its threshold, every account.
  scheduler.register(LOW_BALANCE_CHECK_JOB, () => {
    for (const { id } of db.all<{ id: number }>('SELECT id FROM accounts WHERE revoked = 0 ORDER BY id')) {
      const account = core.accounts.byId(id);
      for (const b of ledger.balances(id)) if (b.minor < b.low_threshold_minor) ledger.lowBalance(account, b.type);
    }
    scheduler.schedule(LOW_BALANCE_CHECK_JOB, clock.now() + LOW_BALANCE_CHECK_EVERY_MS, {});
  });
  if (!db.get('SELECT id FROM jobs WHERE kind = ?', LOW_BALANCE_CHECK_JOB)) {
    scheduler.schedule(LOW_BALANCE_CHECK_JOB, clock.now() + LOW_BALANCE_CHECK_EVERY_MS, {});
  }

  return {
    listBalances({ account }) {
      return { data: ledger.balances(account.id).filter((r) => core.products.holds(account.id, r.type)).map((r) => balanceOf(core, r)) };
    },
    getBalance({ account, params }) {
      assertHeld(core, account.id, params.type);
      return { data: balanceOf(core, ledger.balance(account.id, params.type as BalanceType)) };
    },
    listBalanceTransactions({ account, params, query }) {
      assertHeld(core, account.id, params.type);
      const [from, to] = createdRange(query);
      const [limit, offset] = pageWindow(query);
      const where = 'account_id = ? AND balance_type = ? AND created_at >= ? AND created_at < ?';
      const rows = db.all<TransactionRow>(`SELECT * FROM balance_transactions WHERE ${where} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`, account.id, params.type, from, to, limit, offset);
      const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM balance_transactions WHERE ${where}`, account.id, params.type, from, to)!.n;
      return page(
        rows.map((r) => ({
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
        query,
      );
    },
  };
}
