// Payouts (tag "Payouts"): beneficiaries (SEPA or ACH, soft deleted), quotes, and payouts confirmed from a
// quote. A payout debits `total_debited_usd` from its rail's balance and goes pending -> processing ->
// completed by itself unless the account is manual; the simulation API can make it fail (the total is
// refunded) or be refunded after completion (the amount is refunded, the fee is kept).
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow, perCore } from '../core/context.js';
import { apiError, notFound, planLimitReached, stateError, validationError } from '../core/errors.js';
import { contractLimits, forPlan } from '../core/limits.js';
import { formatAmount, requestAmountMinor, toAmount } from '../core/money.js';
import type { SqlValue } from '../core/store.js';
import { addUsage, periodOf, usage } from '../core/usage.js';
import { checkCustomerFilter, requireActiveCustomer } from '../customers/require.js';
import {
  BALANCE_OF_RAIL,
  QUOTE_VALIDITY_MS,
  SEPA_COUNTRIES,
  USD_EUR_RATE,
  payoutFeeMinor,
  toEurMinor,
  type Rail,
} from './fees.js';

export const PAYOUT_JOB = 'payout.progress';

type Beneficiary = components['schemas']['Beneficiary'];
type PayoutStatus = components['schemas']['PayoutStatus'];

interface BeneficiaryRow {
  code: string;
  account_id: number;
  customer_code: string;
  rail: Rail;
  body: string;
  deleted_at: number | null;
  created_at: number;
}

export interface PayoutRow {
  code: string;
  account_id: number;
  customer_code: string;
  beneficiary_code: string;
  reference: string;
  rail: Rail;
  status: 'quote' | PayoutStatus;
  amount_minor: number;
  fee_minor: number;
  received_minor: number;
  amount_eur_minor: number;
  balance_type: 'payout_sepa' | 'others';
  failure_reason: string | null;
  created_at: number;
  expires_at: number;
  confirmed_at: number | null;
  sent_at: number | null;
  completed_at: number | null;
  refunded_at: number | null;
}

const mask = (value: string, keep: number): string => value.slice(0, keep) + '*'.repeat(Math.max(0, value.length - keep - 4)) + value.slice(-4);

function beneficiaryOf(clock: SandboxCore['clock'], r: BeneficiaryRow): Beneficiary {
  return { ...(JSON.parse(r.body) as Omit<Beneficiary, 'code' | 'customer_code' | 'rail' | 'created_at'>), code: r.code, customer_code: r.customer_code, rail: r.rail, created_at: clock.iso(r.created_at) };
}

function payoutBeneficiary(b: Beneficiary): components['schemas']['PayoutBeneficiary'] {
  return {
    code: b.code,
    name: b.name,
    iban_masked: b.iban_masked,
    account_number_masked: b.account_number_masked ?? null,
    routing_number: b.routing_number ?? null,
    bank_name: b.bank_name,
    country: b.rail === 'ach' ? 'US' : (b.iban_masked ?? 'FR').slice(0, 2),
  };
}

/** Payout state changes shared by the partner API, the automatic progression and the simulation API. */
export class PayoutBook {
  private readonly core: SandboxCore;

  constructor(core: SandboxCore) {
    this.core = core;
    core.scheduler.register(PAYOUT_JOB, (p) => {
      const payout = this.byCode(String(p.payout));
      if (payout?.status === 'pending') this.move(payout, { outcome: 'processing' });
      else if (payout?.status === 'processing') this.move(payout, { outcome: 'completed' });
    });
  }

  byCode(code: string): PayoutRow | undefined {
    return this.core.db.get<PayoutRow>('SELECT * FROM payouts WHERE code = ?', code);
  }

  beneficiary(account: Account, code: string): BeneficiaryRow {
    const row = this.core.db.get<BeneficiaryRow>('SELECT * FROM beneficiaries WHERE account_id = ? AND code = ? AND deleted_at IS NULL', account.id, code);
    if (!row) throw notFound('Beneficiary');
    return row;
  }

  /** A payout (a confirmed quote) of the account. */
  find(account: Account, code: string): PayoutRow {
    const row = this.core.db.get<PayoutRow>("SELECT * FROM payouts WHERE account_id = ? AND code = ? AND status != 'quote'", account.id, code);
    if (!row) throw notFound('Payout');
    return row;
  }

  view(r: PayoutRow): components['schemas']['Payout'] {
    const { clock, db } = this.core;
    const iso = (ms: number | null) => (ms === null ? null : clock.iso(ms));
    const b = db.get<BeneficiaryRow>('SELECT * FROM beneficiaries WHERE code = ?', r.beneficiary_code)!;
    return {
      ...this.priced(r, beneficiaryOf(clock, b)),
      status: r.status as PayoutStatus,
      failure_reason: r.failure_reason,
      confirmed_at: clock.iso(r.confirmed_at ?? r.created_at),
      sent_at: iso(r.sent_at),
      completed_at: iso(r.completed_at),
      refunded_at: iso(r.refunded_at),
    };
  }

  /** The fields a quote and a payout share. */
  priced(r: PayoutRow, b: Beneficiary) {
    return {
      code: r.code,
      reference: r.reference,
      rail: r.rail,
      customer_code: r.customer_code,
      beneficiary: payoutBeneficiary(b),
      amount_usd: toAmount(r.amount_minor),
      fee_usd: toAmount(r.fee_minor),
      total_debited_usd: toAmount(r.amount_minor + r.fee_minor),
      received_amount: toAmount(r.received_minor),
      received_currency: r.rail === 'sepa' ? 'EUR' : 'USD',
      amount_eur: toAmount(r.amount_eur_minor),
      exchange_rate: r.rail === 'sepa' ? USD_EUR_RATE : 1,
      balance_type: r.balance_type,
      created_at: this.core.clock.iso(r.created_at),
    };
  }

  private scheduleNext(account: Account, code: string): void {
    if (!account.manual) this.core.scheduler.schedule(PAYOUT_JOB, this.core.clock.now() + this.core.autoCompleteMs, { payout: code });
  }

  /** Confirms a quote: the limit, the debit, status `pending`. */
  confirm(account: Account, quoteCode: string): PayoutRow {
    const { db, clock, ledger } = this.core;
    return db.transaction(() => {
      const quote = db.get<PayoutRow>('SELECT * FROM payouts WHERE account_id = ? AND code = ?', account.id, quoteCode);
      if (!quote) throw notFound('Quote');
      this.beneficiary(account, quote.beneficiary_code);
      requireActiveCustomer(this.core, account.id, quote.customer_code);
      if (quote.status !== 'quote') throw stateError('quote_already_confirmed', 'This quote was already confirmed: the payout exists.', quote.status);
      const now = clock.now();
      if (now >= quote.expires_at) throw stateError('quote_expired', `This quote expired at ${clock.iso(quote.expires_at)}: ask for a new one.`, 'expired');
      const period = periodOf(now);
      const limit = forPlan(contractLimits().payoutsPerMonthMinor, account.plan);
      if (limit !== null) {
        const used = usage(db, account.id, period, 'payout_usd_minor');
        if (used + quote.amount_minor > limit) {
          throw planLimitReached(`Your plan allows ${formatAmount(limit)} USD of payouts per calendar month.`, { limit: 'payouts_usd_per_month', allowed: toAmount(limit), used: toAmount(used) });
        }
      }
      ledger.debit(account, quote.balance_type, quote.amount_minor + quote.fee_minor, {
        reason: 'payout',
        description: `Payout ${quote.code} (${quote.rail.toUpperCase()}): amount and fee`,
        customerCode: quote.customer_code,
        eventFields: { product: `payout_${quote.rail}` },
      });
      addUsage(db, account.id, period, 'payout_usd_minor', quote.amount_minor);
      db.run("UPDATE payouts SET status = 'pending', confirmed_at = ? WHERE code = ?", now, quote.code);
      this.scheduleNext(account, quote.code);
      return this.byCode(quote.code)!;
    });
  }

  /**
   * Moves a payout: `processing` (from pending), `completed` (from pending or processing), `failed` (from
   * pending or processing: the total is credited back), `refunded` (from completed: the amount is credited
   * back, the fee is kept).
   */
  move(payout: PayoutRow, choice: { outcome: 'processing' | 'completed' | 'failed' | 'refunded'; reason?: string }): PayoutRow {
    const { db, clock, ledger, accounts } = this.core;
    const from: Record<typeof choice.outcome, PayoutStatus[]> = { processing: ['pending'], completed: ['pending', 'processing'], failed: ['pending', 'processing'], refunded: ['completed'] };
    return db.transaction(() => {
      const current = this.byCode(payout.code)!;
      if (!from[choice.outcome].includes(current.status as PayoutStatus)) {
        throw apiError('VALIDATION_ERROR', `A ${current.status} payout cannot become ${choice.outcome}.`, { fields: [], current_status: current.status });
      }
      const account = accounts.byId(current.account_id);
      const now = clock.now();
      switch (choice.outcome) {
        case 'processing':
          db.run("UPDATE payouts SET status = 'processing', sent_at = ? WHERE code = ?", now, current.code);
          this.scheduleNext(account, current.code);
          break;
        case 'completed':
          db.run("UPDATE payouts SET status = 'completed', sent_at = COALESCE(sent_at, ?), completed_at = ? WHERE code = ?", now, now, current.code);
          break;
        case 'failed':
          ledger.credit(account, current.balance_type, current.amount_minor + current.fee_minor, { reason: 'payout_failed_refund', description: `Refund of failed payout ${current.code}`, customerCode: current.customer_code });
          db.run("UPDATE payouts SET status = 'failed', failure_reason = ? WHERE code = ?", choice.reason ?? 'rejected_by_beneficiary_bank', current.code);
          break;
        case 'refunded':
          ledger.credit(account, current.balance_type, current.amount_minor, { reason: 'payout_returned', description: `Payout ${current.code} returned by the beneficiary's bank`, customerCode: current.customer_code });
          db.run("UPDATE payouts SET status = 'refunded', refunded_at = ?, failure_reason = ? WHERE code = ?", now, choice.reason ?? null, current.code);
          break;
      }
      return this.byCode(current.code)!;
    });
  }
}

export const payoutBook = perCore((core) => new PayoutBook(core));

function listWhere(accountId: number, filters: Record<string, unknown>, columns: readonly string[], base: string): [string, SqlValue[]] {
  const where = [base];
  const args: SqlValue[] = [accountId];
  for (const column of columns) {
    const value = filters[column];
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    args.push(value as SqlValue);
  }
  return [where.join(' AND '), args];
}

export function payouts(core: SandboxCore): Handlers {
  const { db, clock } = core;
  const book = payoutBook(core);
  return {
    createBeneficiary({ account, body }) {
      return db.transaction(() => {
        const customer = requireActiveCustomer(core, account.id, body.customer_code);
        const address = { state_province: '', ...body.address };
        let view: Omit<Beneficiary, 'code' | 'customer_code' | 'rail' | 'created_at'>;
        if (body.rail === 'sepa') {
          const country = body.iban.slice(0, 2);
          if (!body.bic_swift && !SEPA_COUNTRIES.has(country)) {
            throw validationError('The bank of this IBAN cannot be found: send its BIC in bic_swift.', [{ field: 'bic_swift', message: 'is required for this IBAN' }]);
          }
          view = { type: body.type, name: body.name, bank_name: body.bank_name, iban_masked: mask(body.iban, 4), bic_swift: body.bic_swift ?? `SNDB${country}PP`, account_number_masked: null, routing_number: null, account_type: null, address };
        } else {
          view = { type: body.type, name: body.name, bank_name: body.bank_name, iban_masked: null, bic_swift: null, account_number_masked: mask(body.account_number, 0), routing_number: body.routing_number, account_type: body.account_type ?? 'checking', address };
        }
        const code = randomUUID();
        db.run('INSERT INTO beneficiaries (code, account_id, customer_code, rail, body, deleted_at, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?)', code, account.id, customer.code, body.rail, JSON.stringify(view), clock.now());
        return { data: beneficiaryOf(clock, book.beneficiary(account, code)) };
      });
    },

    listBeneficiaries({ account, query }) {
      checkCustomerFilter(core, account.id, query.customer_code);
      const [where, args] = listWhere(account.id, query, ['customer_code'], 'account_id = ? AND deleted_at IS NULL');
      const [limit, offset] = pageWindow(query);
      const rows = db.all<BeneficiaryRow>(`SELECT * FROM beneficiaries WHERE ${where} ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`, ...args, limit, offset);
      const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM beneficiaries WHERE ${where}`, ...args)!.n;
      return page(rows.map((r) => beneficiaryOf(clock, r)), total, query);
    },

    getBeneficiary({ account, params }) {
      return { data: beneficiaryOf(clock, book.beneficiary(account, params.code)) };
    },

    deleteBeneficiary({ account, params }) {
      return db.transaction(() => {
        const row = book.beneficiary(account, params.code);
        db.run('UPDATE beneficiaries SET deleted_at = ? WHERE code = ?', clock.now(), row.code);
        return { data: { code: row.code, deleted: true } };
      });
    },

    createPayoutQuote({ account, body }) {
      const amount = requestAmountMinor('amount_usd', body.amount_usd);
      return db.transaction(() => {
        const b = book.beneficiary(account, body.beneficiary_code);
        requireActiveCustomer(core, account.id, b.customer_code);
        const now = clock.now();
        const row: PayoutRow = {
          code: randomUUID(), account_id: account.id, customer_code: b.customer_code, beneficiary_code: b.code, reference: body.reference, rail: b.rail, status: 'quote',
          amount_minor: amount, fee_minor: payoutFeeMinor(b.rail, amount), received_minor: b.rail === 'sepa' ? toEurMinor(amount) : amount, amount_eur_minor: toEurMinor(amount),
          balance_type: BALANCE_OF_RAIL[b.rail], failure_reason: null, created_at: now, expires_at: now + QUOTE_VALIDITY_MS, confirmed_at: null, sent_at: null, completed_at: null, refunded_at: null,
        };
        db.run(
          `INSERT INTO payouts (code, account_id, customer_code, beneficiary_code, reference, rail, status, amount_minor, fee_minor, received_minor, amount_eur_minor, balance_type, created_at, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, 'quote', ?, ?, ?, ?, ?, ?, ?)`,
          row.code, account.id, row.customer_code, row.beneficiary_code, row.reference, row.rail, row.amount_minor, row.fee_minor, row.received_minor, row.amount_eur_minor, row.balance_type, now, row.expires_at,
        );
        return { data: { ...book.priced(row, beneficiaryOf(clock, b)), expires_at: clock.iso(row.expires_at) } };
      });
    },

    createPayout({ account, body }) {
      return { data: book.view(book.confirm(account, body.quote_code)) };
    },

    listPayouts({ account, query }) {
      checkCustomerFilter(core, account.id, query.customer_code);
      const [from, to] = createdRange(query);
      const [where, args] = listWhere(account.id, query, ['customer_code', 'status'], "account_id = ? AND status != 'quote' AND created_at >= ? AND created_at < ?");
      args.splice(1, 0, from, to);
      const [limit, offset] = pageWindow(query);
      const rows = db.all<PayoutRow>(`SELECT * FROM payouts WHERE ${where} ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`, ...args, limit, offset);
      const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM payouts WHERE ${where}`, ...args)!.n;
      return page(rows.map((r) => book.view(r)), total, query);
    },

    getPayout({ account, params }) {
      return { data: book.view(book.find(account, params.code)) };
    },
  };
}
