// Cards, top-ups and card transactions in the store, and their contract shapes.
import { randomInt } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Clock } from '../core/clock.js';
import { timeOrderedId } from '../core/ids.js';
import { toAmount } from '../core/money.js';
import type { Db, SqlValue } from '../core/store.js';

export interface CardRow {
  code: string;
  account_id: number;
  customer_code: string;
  product_code: string;
  brand: components['schemas']['CardBrandChoice'];
  category: 'virtual' | 'physical';
  name_on_card: string;
  status: 'pending' | 'active' | 'frozen' | 'failed' | 'cancelled';
  balance_minor: number;
  initial_load_minor: number;
  card_fee_minor: number;
  service_fee_minor: number;
  last_four: string | null;
  expiry: string | null;
  pan: string | null;
  cvv: string | null;
  created_at: number;
}

export interface TopUpRow {
  id: string;
  account_id: number;
  card_code: string;
  amount_minor: number;
  fee_minor: number;
  status: components['schemas']['CardTopUpStatus'];
  created_at: number;
}

export interface CardTransactionRow {
  id: string;
  card_code: string;
  type: string;
  direction: 'debit' | 'credit';
  status: string;
  amount_minor: number;
  currency: string;
  merchant_name: string;
  merchant_city: string | null;
  merchant_country: string | null;
  description: string;
  failure_reason: string | null;
  balance_after_minor: number;
  date: number;
}

export const balanceTypeOf = (brand: CardRow['brand']): 'cards_visa' | 'cards_mastercard' =>
  brand === 'VISA' ? 'cards_visa' : 'cards_mastercard';

export function cardOf(clock: Clock, r: CardRow): components['schemas']['Card'] {
  return {
    code: r.code,
    customer_code: r.customer_code,
    product_code: r.product_code,
    brand: r.brand,
    category: r.category,
    name_on_card: r.name_on_card,
    status: r.status,
    balance: toAmount(r.balance_minor),
    currency: 'USD',
    last_four: r.last_four,
    expiry: r.expiry,
    fees: {
      card_fee: toAmount(r.card_fee_minor),
      service_fee: toAmount(r.service_fee_minor),
      total_charged: toAmount(r.initial_load_minor + r.card_fee_minor + r.service_fee_minor),
    },
    created_at: clock.iso(r.created_at),
  };
}

/** A top-up as the contract shows it; a failed one says why (`failureReason`) and what was refunded. */
export function topUpOf(clock: Clock, card: CardRow, topUp: TopUpRow, failureReason: string | null): components['schemas']['CardTopUp'] {
  const failed = topUp.status === 'failed';
  return {
    card_code: card.code,
    topup_id: topUp.id,
    status: topUp.status,
    amount: toAmount(topUp.amount_minor),
    fee: toAmount(topUp.fee_minor),
    total_debited: toAmount(topUp.amount_minor + topUp.fee_minor),
    debited_balance: balanceTypeOf(card.brand),
    currency: 'USD' as const,
    failure_reason: failed ? failureReason : null,
    refunded_amount: failed ? toAmount(topUp.amount_minor + topUp.fee_minor) : null,
    created_at: clock.iso(topUp.created_at),
  };
}

export function transactionOf(clock: Clock, r: CardTransactionRow): components['schemas']['CardTransaction'] {
  return {
    id: r.id,
    type: r.type as components['schemas']['CardTransaction']['type'],
    direction: r.direction,
    status: r.status,
    amount: toAmount(r.amount_minor),
    currency: r.currency,
    merchant_name: r.merchant_name,
    merchant_city: r.merchant_city,
    merchant_country: r.merchant_country,
    description: r.description,
    failure_reason: r.failure_reason,
    balance_after: toAmount(r.balance_after_minor),
    date: clock.iso(r.date),
  };
}

/** A Luhn-valid 16-digit number: 4… for VISA, 5… for MASTERCARD. */
export function newPan(brand: CardRow['brand']): string {
  const digits = [brand === 'VISA' ? 4 : 5, ...Array.from({ length: 14 }, () => randomInt(10))];
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits[digits.length - 1 - i]!;
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return [...digits, (10 - (sum % 10)) % 10].join('');
}

export const newTransactionId = (): string => timeOrderedId('txn');

export class CardRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }
  find(accountId: number, code: string): CardRow | undefined {
    return this.db.get<CardRow>('SELECT * FROM cards WHERE account_id = ? AND code = ?', accountId, code);
  }
  byCode(code: string): CardRow | undefined {
    return this.db.get<CardRow>('SELECT * FROM cards WHERE code = ?', code);
  }
  list(accountId: number, customerCode: string | undefined, limit: number, offset: number): { rows: CardRow[]; total: number } {
    const where = customerCode ? 'account_id = ? AND customer_code = ?' : 'account_id = ?';
    const args: SqlValue[] = customerCode ? [accountId, customerCode] : [accountId];
    return {
      rows: this.db.all<CardRow>(
        `SELECT * FROM cards WHERE ${where} ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`,
        ...args,
        limit,
        offset,
      ),
      total: this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM cards WHERE ${where}`, ...args)!.n,
    };
  }
  insert(r: CardRow): void {
    this.db.run(
      `INSERT INTO cards (code, account_id, customer_code, product_code, brand, category, name_on_card, status, balance_minor, initial_load_minor, card_fee_minor, service_fee_minor, last_four, expiry, pan, cvv, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      r.code,
      r.account_id,
      r.customer_code,
      r.product_code,
      r.brand,
      r.category,
      r.name_on_card,
      r.status,
      r.balance_minor,
      r.initial_load_minor,
      r.card_fee_minor,
      r.service_fee_minor,
      r.last_four,
      r.expiry,
      r.pan,
      r.cvv,
      r.created_at,
    );
  }
  setStatus(code: string, status: CardRow['status']): void {
    this.db.run('UPDATE cards SET status = ? WHERE code = ?', status, code);
  }
  setBalance(code: string, minor: number): void {
    this.db.run('UPDATE cards SET balance_minor = ? WHERE code = ?', minor, code);
  }
  issue(code: string, fields: { last_four: string; expiry: string; pan: string; cvv: string; balance_minor: number }): void {
    this.db.run(
      "UPDATE cards SET status = 'active', last_four = ?, expiry = ?, pan = ?, cvv = ?, balance_minor = ? WHERE code = ?",
      fields.last_four,
      fields.expiry,
      fields.pan,
      fields.cvv,
      fields.balance_minor,
      code,
    );
  }
  topUp(id: string): TopUpRow | undefined {
    return this.db.get<TopUpRow>('SELECT * FROM card_topups WHERE id = ?', id);
  }
  pendingTopUps(cardCode: string): TopUpRow[] {
    return this.db.all<TopUpRow>("SELECT * FROM card_topups WHERE card_code = ? AND status = 'pending' ORDER BY created_at", cardCode);
  }
  insertTopUp(r: TopUpRow): void {
    this.db.run(
      'INSERT INTO card_topups (id, account_id, card_code, amount_minor, fee_minor, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      r.id,
      r.account_id,
      r.card_code,
      r.amount_minor,
      r.fee_minor,
      r.status,
      r.created_at,
    );
  }
  setTopUpStatus(id: string, status: TopUpRow['status']): void {
    this.db.run('UPDATE card_topups SET status = ? WHERE id = ?', status, id);
  }
  /** Why a failed top-up failed. */
  topUpFailureReason(id: string): string | undefined {
    return this.db.get<{ reason: string }>('SELECT reason FROM card_topup_failures WHERE topup_id = ?', id)?.reason;
  }
  insertTopUpFailure(id: string, reason: string): void {
    this.db.run('INSERT INTO card_topup_failures (topup_id, reason) VALUES (?, ?)', id, reason);
  }
  /** When the card's termination was requested, while it waits on the card provider. */
  pendingTermination(cardCode: string): number | undefined {
    return this.db.get<{ requested_at: number }>('SELECT requested_at FROM card_terminations WHERE card_code = ?', cardCode)?.requested_at;
  }
  insertTermination(accountId: number, cardCode: string, requestedAt: number): void {
    this.db.run('INSERT INTO card_terminations (card_code, account_id, requested_at) VALUES (?, ?, ?)', cardCode, accountId, requestedAt);
  }
  deleteTermination(cardCode: string): void {
    this.db.run('DELETE FROM card_terminations WHERE card_code = ?', cardCode);
  }
  insertTransaction(accountId: number, r: CardTransactionRow): void {
    this.db.run(
      `INSERT INTO card_transactions (id, account_id, card_code, type, direction, status, amount_minor, currency, merchant_name, merchant_city, merchant_country, description, failure_reason, balance_after_minor, date)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      r.id,
      accountId,
      r.card_code,
      r.type,
      r.direction,
      r.status,
      r.amount_minor,
      r.currency,
      r.merchant_name,
      r.merchant_city,
      r.merchant_country,
      r.description,
      r.failure_reason,
      r.balance_after_minor,
      r.date,
    );
  }
  transactions(
    accountId: number,
    cardCode: string,
    limit: number,
    offset: number,
    from?: number,
    to?: number,
  ): { rows: CardTransactionRow[]; total: number } {
    const where = 'account_id = ? AND card_code = ? AND date >= ? AND date < ?';
    const args: SqlValue[] = [accountId, cardCode, from ?? 0, to ?? Number.MAX_SAFE_INTEGER];
    return {
      rows: this.db.all<CardTransactionRow>(
        `SELECT * FROM card_transactions WHERE ${where} ORDER BY date DESC, id DESC LIMIT ? OFFSET ?`,
        ...args,
        limit,
        offset,
      ),
      total: this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM card_transactions WHERE ${where}`, ...args)!.n,
    };
  }
}
