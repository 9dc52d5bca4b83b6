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
export const mask = (value: string, keep: number): string =>
  value.slice(0, keep) + '*'.repeat(Math.max(0, value.length - keep - 4)) + value.slice(-4);

export function beneficiaryOf(clock: SandboxCore['clock'], r: BeneficiaryRow): Beneficiary {
  return {
    ...(JSON.parse(r.body) as Omit<Beneficiary, 'code' | 'customer_code' | 'rail' | 'created_at'>),
    code: r.code,
    customer_code: r.customer_code,
    rail: r.rail,
    created_at: clock.iso(r.created_at),
  };
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

/** A new beneficiary; `view` is what the contract shows of it (masked numbers, address). */
export function insertBeneficiary(
  core: SandboxCore,
  row: Pick<BeneficiaryRow, 'code' | 'account_id' | 'customer_code' | 'rail'>,
  view: Omit<Beneficiary, 'code' | 'customer_code' | 'rail' | 'created_at'>,
): void {
  core.db.run(
    'INSERT INTO beneficiaries (code, account_id, customer_code, rail, body, deleted_at, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?)',
    row.code,
    row.account_id,
    row.customer_code,
    row.rail,
    JSON.stringify(view),
    core.clock.now(),
  );
}

/** One page of the account's beneficiaries not deleted, the customer's only when `customer_code` is given, most recent first. */
export function beneficiaryPage(
  core: SandboxCore,
  accountId: number,
  filters: { customer_code?: string },
  limit: number,
  offset: number,
): { rows: BeneficiaryRow[]; total: number } {
  const [where, args] = listWhere(accountId, filters, ['customer_code'], 'account_id = ? AND deleted_at IS NULL');
  const rows = core.db.all<BeneficiaryRow>(
    `SELECT * FROM beneficiaries WHERE ${where} ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`,
    ...args,
    limit,
    offset,
  );
  const total = core.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM beneficiaries WHERE ${where}`, ...args)!.n;
  return { rows, total };
}

/** Soft deletes a beneficiary: its payouts still show it. */
export function deleteBeneficiary(core: SandboxCore, code: string): void {
  core.db.run('UPDATE beneficiaries SET deleted_at = ? WHERE code = ?', core.clock.now(), code);
}

/** A new quote: a payouts row in status `quote`. */
export function insertQuote(core: SandboxCore, row: PayoutRow): void {
  core.db.run(
    `INSERT INTO payouts (code, account_id, customer_code, beneficiary_code, reference, rail, status, amount_minor, fee_minor, received_minor, amount_eur_minor, balance_type, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, 'quote', ?, ?, ?, ?, ?, ?, ?)`,
    row.code,
    row.account_id,
    row.customer_code,
    row.beneficiary_code,
    row.reference,
    row.rail,
    row.amount_minor,
    row.fee_minor,
    row.received_minor,
    row.amount_eur_minor,
    row.balance_type,
    row.created_at,
    row.expires_at,
  );
}

/** One page of the account's payouts (not quotes) created in [from, to), filtered on customer and status, most recent first. */
export function payoutPage(
  core: SandboxCore,
  accountId: number,
  filters: { customer_code?: string; status?: string; from: number; to: number },
  limit: number,
  offset: number,
): { rows: PayoutRow[]; total: number } {
  const [where, args] = listWhere(
    accountId,
    filters,
    ['customer_code', 'status'],
    "account_id = ? AND status != 'quote' AND created_at >= ? AND created_at < ?",
  );
  args.splice(1, 0, filters.from, filters.to);
  const rows = core.db.all<PayoutRow>(
    `SELECT * FROM payouts WHERE ${where} ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`,
    ...args,
    limit,
    offset,
  );
  const total = core.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM payouts WHERE ${where}`, ...args)!.n;
  return { rows, total };
}

export function payoutByCode(core: SandboxCore, code: string): PayoutRow | undefined {
  return core.db.get<PayoutRow>('SELECT * FROM payouts WHERE code = ?', code);
}

/** The account's quote or payout of that code. */
export function accountPayoutRow(core: SandboxCore, accountId: number, code: string): PayoutRow | undefined {
  return core.db.get<PayoutRow>('SELECT * FROM payouts WHERE account_id = ? AND code = ?', accountId, code);
}

/** The account's payout of that code, a quote not counting. */
export function confirmedPayout(core: SandboxCore, accountId: number, code: string): PayoutRow | undefined {
  return core.db.get<PayoutRow>("SELECT * FROM payouts WHERE account_id = ? AND code = ? AND status != 'quote'", accountId, code);
}

/** The beneficiary of that code, deleted or not (a payout still shows it). */
export function beneficiaryByCode(core: SandboxCore, code: string): BeneficiaryRow | undefined {
  return core.db.get<BeneficiaryRow>('SELECT * FROM beneficiaries WHERE code = ?', code);
}

/** The account's beneficiary of that code, unless deleted. */
export function liveBeneficiary(core: SandboxCore, accountId: number, code: string): BeneficiaryRow | undefined {
  return core.db.get<BeneficiaryRow>(
    'SELECT * FROM beneficiaries WHERE account_id = ? AND code = ? AND deleted_at IS NULL',
    accountId,
    code,
  );
}

export function markPayoutPending(core: SandboxCore, code: string, now: number): void {
  core.db.run("UPDATE payouts SET status = 'pending', confirmed_at = ? WHERE code = ?", now, code);
}

export function markPayoutProcessing(core: SandboxCore, code: string, now: number): void {
  core.db.run("UPDATE payouts SET status = 'processing', sent_at = ? WHERE code = ?", now, code);
}

/** Completed; sent now too when it went straight from pending. */
export function markPayoutCompleted(core: SandboxCore, code: string, now: number): void {
  core.db.run("UPDATE payouts SET status = 'completed', sent_at = COALESCE(sent_at, ?), completed_at = ? WHERE code = ?", now, now, code);
}

export function markPayoutFailed(core: SandboxCore, code: string, reason: string): void {
  core.db.run("UPDATE payouts SET status = 'failed', failure_reason = ? WHERE code = ?", reason, code);
}

export function markPayoutRefunded(core: SandboxCore, code: string, now: number, reason: string | null): void {
  core.db.run("UPDATE payouts SET status = 'refunded', refunded_at = ?, failure_reason = ? WHERE code = ?", now, reason, code);
}
