// Ops balances: every debit and credit is a balance transaction in minor units. A debit that would take a
// balance below zero is refused (400 INSUFFICIENT_BALANCE) unless the operation may overdraw (billing);
// a debit that crosses the low balance threshold sends `balance.low_balance`.
import { BALANCE_TYPES, type Account, type BalanceType } from './accounts.js';
import type { Clock } from './clock.js';
import { sandboxModel, type JsonObject } from './contract.js';
import { apiError } from './errors.js';
import type { Outbox } from './outbox.js';
import { toAmount } from './money.js';
import type { Db } from './store.js';
import { timeOrderedId } from './ids.js';

export interface BalanceRow {
  type: BalanceType;
  minor: number;
  low_threshold_minor: number;
  negative_since: number | null;
  updated_at: number;
}

/**
 * The reasons a balance transaction may carry: the contract's (`BalanceTransaction.reason`'s examples), and the
 * sandbox's own `sandbox_adjustment` (a balance set through the simulation API).
 */
let reasons: Set<string> | undefined;
function knownReason(reason: string): boolean {
  reasons ??= new Set([...contractReasons(), 'sandbox_adjustment']);
  return reasons.has(reason);
}
function contractReasons(): string[] {
  const properties = sandboxModel().schema('BalanceTransaction')?.node.properties as JsonObject | undefined;
  return ((properties?.reason as JsonObject | undefined)?.examples ?? []) as string[];
}

export interface Movement {
  reason: string;
  description: string;
  customerCode?: string | null;
  /** Extra fields of `balance.debited` (brand, product ...). */
  eventFields?: Record<string, unknown>;
  /** Let the balance go negative (billing that cannot be refused). */
  allowNegative?: boolean;
}

export class Ledger {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly outbox: Outbox;

  constructor(db: Db, clock: Clock, outbox: Outbox) {
    this.db = db;
    this.clock = clock;
    this.outbox = outbox;
  }

  balance(accountId: number, type: BalanceType): BalanceRow {
    return this.db.get<BalanceRow>(
      'SELECT type, minor, low_threshold_minor, negative_since, updated_at FROM balances WHERE account_id = ? AND type = ?',
      accountId,
      type,
    )!;
  }

  /** The account's balances in the contract's order of types (`cards_visa` first), as `GET /balance` lists them. */
  balances(accountId: number): BalanceRow[] {
    // Sorted here: the primary key orders them by name, and a sort in SQL would build a temporary B-tree per request.
    const rows = this.db.all<BalanceRow>(
      'SELECT type, minor, low_threshold_minor, negative_since, updated_at FROM balances WHERE account_id = ?',
      accountId,
    );
    return rows.sort((a, b) => BALANCE_TYPES.indexOf(a.type) - BALANCE_TYPES.indexOf(b.type));
  }

  /** The earliest `negative_since` of the account's balances, or undefined when none is negative. */
  negativeSince(accountId: number): number | undefined {
    const row = this.db.get<{ since: number | null }>('SELECT MIN(negative_since) AS since FROM balances WHERE account_id = ?', accountId);
    return row?.since ?? undefined;
  }

  /** Refuses with 400 INSUFFICIENT_BALANCE when the balance cannot cover `minor`. */
  require(accountId: number, type: BalanceType, minor: number): void {
    const balance = this.balance(accountId, type);
    if (balance.minor < minor) {
      throw apiError('INSUFFICIENT_BALANCE', `The ${type} balance cannot cover this operation.`, {
        required: toAmount(minor),
        available: toAmount(balance.minor),
        balance_type: type,
        reason: 'ops_balance_too_low',
      });
    }
  }

  debit(account: Account, type: BalanceType, minor: number, movement: Movement): number {
    if (!movement.allowNegative) this.require(account.id, type, minor);
    const before = this.balance(account.id, type);
    const after = this.move(account, type, before, -minor, 'debit', movement);
    this.outbox.emit(account, 'balance.debited', {
      reason: movement.reason,
      balance_type: type,
      amount: toAmount(minor),
      ...(movement.customerCode ? { customer_code: movement.customerCode } : {}),
      ...movement.eventFields,
    });
    if (before.minor >= before.low_threshold_minor && after < before.low_threshold_minor) this.lowBalance(account, type);
    return after;
  }

  credit(account: Account, type: BalanceType, minor: number, movement: Movement): number {
    const before = this.balance(account.id, type);
    return this.move(account, type, before, minor, 'credit', movement);
  }

  /** Sets a balance (simulation): the difference is recorded as one adjustment transaction. */
  set(account: Account, type: BalanceType, minor: number): void {
    const before = this.balance(account.id, type);
    const delta = minor - before.minor;
    if (delta === 0) return;
    this.move(account, type, before, delta, delta > 0 ? 'credit' : 'debit', {
      reason: 'sandbox_adjustment',
      description: 'Balance set through the sandbox simulation API',
    });
  }

  setThreshold(accountId: number, type: BalanceType, minor: number): void {
    this.db.run('UPDATE balances SET low_threshold_minor = ? WHERE account_id = ? AND type = ?', minor, accountId, type);
  }

  lowBalance(account: Account, type: BalanceType): void {
    const b = this.balance(account.id, type);
    this.outbox.emit(account, 'balance.low_balance', {
      balance_type: type,
      balance: toAmount(b.minor),
      lowBalanceThreshold: toAmount(b.low_threshold_minor),
    });
  }

  private move(
    account: Account,
    type: BalanceType,
    before: BalanceRow,
    delta: number,
    direction: 'debit' | 'credit',
    movement: Movement,
  ): number {
    // A reason the contract does not give is a defect of the sandbox, not the partner's: a 500 names it.
    if (!knownReason(movement.reason)) throw new Error(`balance transaction reason ${movement.reason} is not one of the contract's`);
    const now = this.clock.now();
    const after = before.minor + delta;
    const since = after < 0 ? (before.negative_since ?? now) : null;
    this.db.run(
      'UPDATE balances SET minor = ?, negative_since = ?, updated_at = ? WHERE account_id = ? AND type = ?',
      after,
      since,
      now,
      account.id,
      type,
    );
    this.db.run(
      `INSERT INTO balance_transactions (id, account_id, balance_type, direction, amount_minor, balance_after_minor, reason, description, customer_code, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      timeOrderedId('btx'),
      account.id,
      type,
      direction,
      Math.abs(delta),
      after,
      movement.reason,
      movement.description,
      movement.customerCode ?? null,
      now,
    );
    return after;
  }
}
