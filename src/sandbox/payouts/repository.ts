// Beneficiaries and payouts in the store (a quote is a payouts row in status `quote`), and their contract shapes.
import type { components } from '../../../generated/openapi.js';
import type { SandboxCore } from '../core/context.js';
import type { SqlValue } from '../core/store.js';
import type { Rail } from './fees.js';

export type Beneficiary = components['schemas']['Beneficiary'];
export type PayoutStatus = components['schemas']['PayoutStatus'];

export interface BeneficiaryRow {
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

/** All but the first `keep` and the last 4 characters hidden. */
export const mask = (value: string, keep: number): string => value.slice(0, keep) + '*'.repeat(Math.max(0, value.length - keep - 4)) + value.slice(-4);

export function beneficiaryOf(clock: SandboxCore['clock'], r: BeneficiaryRow): Beneficiary {
  return { ...(JSON.parse(r.body) as Omit<Beneficiary, 'code' | 'customer_code' | 'rail' | 'created_at'>), code: r.code, customer_code: r.customer_code, rail: r.rail, created_at: clock.iso(r.created_at) };
}

export function payoutBeneficiary(b: Beneficiary): components['schemas']['PayoutBeneficiary'] {
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

/** The WHERE clause of an account's list (`base`, then an exact match for each of `columns` present in `filters`). */
export function listWhere(accountId: number, filters: Record<string, unknown>, columns: readonly string[], base: string): [string, SqlValue[]] {
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

