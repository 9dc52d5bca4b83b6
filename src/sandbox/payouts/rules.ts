// A payout's state changes, shared by the partner API, the automatic progression and the simulation API: a
// quote prices an amount for a beneficiary; a confirmed quote debits `total_debited_usd` from its rail's
// balance and goes pending -> processing -> completed by itself unless the account is manual; it can fail (the
// total is refunded) or be refunded after completion (the amount is refunded, the fee is kept).
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import { perCore, type SandboxCore } from '../core/context.js';
import { apiError, notFound, planLimitReached, stateError } from '../core/errors.js';
import { contractLimits, forPlan } from '../core/limits.js';
import { defineJob } from '../core/scheduler.js';
import { formatAmount, toAmount } from '../core/money.js';
import { addUsage, periodOf, usage } from '../core/usage.js';
import { requireActiveCustomer } from '../customers/require.js';
import { BALANCE_OF_RAIL, QUOTE_VALIDITY_MS, USD_EUR_RATE, payoutFeeMinor, toEurMinor } from './fees.js';
import {
  accountPayoutRow,
  beneficiaryByCode,
  beneficiaryOf,
  confirmedPayout,
  insertQuote,
  liveBeneficiary,
  markPayoutCompleted,
  markPayoutFailed,
  markPayoutPending,
  markPayoutProcessing,
  markPayoutRefunded,
  payoutBeneficiary,
  payoutByCode,
  type Beneficiary,
  type BeneficiaryRow,
  type PayoutRow,
  type PayoutStatus,
} from './repository.js';

/** The automatic progression of a payout: pending -> processing, then processing -> completed. */
export const PAYOUT_JOB = defineJob<{ payout: string }>(
  'payout.progress',
  (core, { payout: code }) => {
    const book = payoutBook(core);
    const payout = book.byCode(code);
    if (payout?.status === 'pending') book.move(payout, { outcome: 'processing' });
    else if (payout?.status === 'processing') book.move(payout, { outcome: 'completed' });
  },
  { automatic: true },
);

export class PayoutBook {
  private readonly core: SandboxCore;

  constructor(core: SandboxCore) {
    this.core = core;
  }

  byCode(code: string): PayoutRow | undefined {
    return payoutByCode(this.core, code);
  }

  beneficiary(account: Account, code: string): BeneficiaryRow {
    const row = liveBeneficiary(this.core, account.id, code);
    if (!row) throw notFound('Beneficiary');
    return row;
  }

  /** A payout (a confirmed quote) of the account. */
  find(account: Account, code: string): PayoutRow {
    const row = confirmedPayout(this.core, account.id, code);
    if (!row) throw notFound('Payout');
    return row;
  }

  view(r: PayoutRow): components['schemas']['Payout'] {
    const { clock } = this.core;
    const iso = (ms: number | null) => (ms === null ? null : clock.iso(ms));
    const b = beneficiaryByCode(this.core, r.beneficiary_code)!;
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

  /** A quote of `amountMinor` USD to a beneficiary of an active customer: its fee and received amount, valid a while. */
  quote(account: Account, beneficiaryCode: string, amountMinor: number, reference: string): PayoutRow {
    const b = this.beneficiary(account, beneficiaryCode);
    requireActiveCustomer(this.core, account.id, b.customer_code);
    const now = this.core.clock.now();
    const row: PayoutRow = {
      code: randomUUID(),
      account_id: account.id,
      customer_code: b.customer_code,
      beneficiary_code: b.code,
      reference,
      rail: b.rail,
      status: 'quote',
      amount_minor: amountMinor,
      fee_minor: payoutFeeMinor(b.rail, amountMinor),
      received_minor: b.rail === 'sepa' ? toEurMinor(amountMinor) : amountMinor,
      amount_eur_minor: toEurMinor(amountMinor),
      balance_type: BALANCE_OF_RAIL[b.rail],
      failure_reason: null,
      created_at: now,
      expires_at: now + QUOTE_VALIDITY_MS,
      confirmed_at: null,
      sent_at: null,
      completed_at: null,
      refunded_at: null,
    };
    insertQuote(this.core, row);
    return row;
  }

  quoteView(quote: PayoutRow): components['schemas']['PayoutQuote'] {
    const b = beneficiaryByCode(this.core, quote.beneficiary_code)!;
    return { ...this.priced(quote, beneficiaryOf(this.core.clock, b)), expires_at: this.core.clock.iso(quote.expires_at) };
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
      const quote = accountPayoutRow(this.core, account.id, quoteCode);
      if (!quote) throw notFound('Quote');
      this.beneficiary(account, quote.beneficiary_code);
      requireActiveCustomer(this.core, account.id, quote.customer_code);
      if (quote.status !== 'quote')
        throw stateError('quote_already_confirmed', 'This quote was already confirmed: the payout exists.', quote.status);
      const now = clock.now();
      if (now >= quote.expires_at)
        throw stateError('quote_expired', `This quote expired at ${clock.iso(quote.expires_at)}: ask for a new one.`, 'expired');
      const period = periodOf(now);
      const limit = forPlan(contractLimits().payoutsPerMonthMinor, account.plan);
      if (limit !== null) {
        const used = usage(db, account.id, period, 'payout_usd_minor');
        if (used + quote.amount_minor > limit) {
          throw planLimitReached(`Your plan allows ${formatAmount(limit)} USD of payouts per calendar month.`, {
            limit: 'payouts_usd_per_month',
            allowed: toAmount(limit),
            used: toAmount(used),
          });
        }
      }
      ledger.debit(account, quote.balance_type, quote.amount_minor + quote.fee_minor, {
        reason: 'payout',
        description: `Payout ${quote.code} (${quote.rail.toUpperCase()}): amount and fee`,
        customerCode: quote.customer_code,
        eventFields: { product: `payout_${quote.rail}` },
      });
      addUsage(db, account.id, period, 'payout_usd_minor', quote.amount_minor);
      markPayoutPending(this.core, quote.code, now);
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
    const from: Record<typeof choice.outcome, PayoutStatus[]> = {
      processing: ['pending'],
      completed: ['pending', 'processing'],
      failed: ['pending', 'processing'],
      refunded: ['completed'],
    };
    return db.transaction(() => {
      const current = this.byCode(payout.code)!;
      if (!from[choice.outcome].includes(current.status as PayoutStatus)) {
        throw apiError('VALIDATION_ERROR', `A ${current.status} payout cannot become ${choice.outcome}.`, {
          fields: [],
          current_status: current.status,
        });
      }
      const account = accounts.byId(current.account_id);
      const now = clock.now();
      switch (choice.outcome) {
        case 'processing':
          markPayoutProcessing(this.core, current.code, now);
          this.scheduleNext(account, current.code);
          break;
        case 'completed':
          markPayoutCompleted(this.core, current.code, now);
          break;
        case 'failed':
          ledger.credit(account, current.balance_type, current.amount_minor + current.fee_minor, {
            reason: 'payout_failed_refund',
            description: `Refund of failed payout ${current.code}`,
            customerCode: current.customer_code,
          });
          markPayoutFailed(this.core, current.code, choice.reason ?? 'rejected_by_beneficiary_bank');
          break;
        case 'refunded':
          ledger.credit(account, current.balance_type, current.amount_minor, {
            reason: 'payout_returned',
            description: `Payout ${current.code} returned by the beneficiary's bank`,
            customerCode: current.customer_code,
          });
          markPayoutRefunded(this.core, current.code, now, choice.reason ?? null);
          break;
      }
      return this.byCode(current.code)!;
    });
  }
}

export const payoutBook = perCore((core) => new PayoutBook(core));
