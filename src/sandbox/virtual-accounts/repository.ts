// Virtual accounts in the store, their contract shape, and the bank details the sandbox gives them.
import { randomInt } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { notFound } from '../core/errors.js';

export const VIRTUAL_ACCOUNT_BANK = { name: 'Sandbox Bank Europe', bic: 'SNDBFRPPXXX' } as const;

export interface VirtualAccountRow {
  code: string;
  account_id: number;
  customer_code: string;
  currency: string;
  status: components['schemas']['VirtualAccount']['status'];
  iban: string | null;
  bic_swift: string | null;
  bank_name: string | null;
  account_holder_name: string;
  balance_minor: number;
  created_at: number;
}

/** A French IBAN with valid check digits (ISO 13616, mod 97). */
export function newIban(): string {
  const bban = `30004${String(randomInt(100_000)).padStart(5, '0')}${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(100)).padStart(2, '0')}97`;
  const digits = `${bban}FR00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return `FR${String(98 - rest).padStart(2, '0')}${bban}`;
}

export function virtualAccountOf(clock: SandboxCore['clock'], r: VirtualAccountRow): components['schemas']['VirtualAccount'] {
  return {
    code: r.code,
    customer_code: r.customer_code,
    currency: r.currency,
    status: r.status,
    iban: r.iban,
    bic_swift: r.bic_swift,
    bank_name: r.bank_name,
    account_holder_name: r.account_holder_name,
    created_at: clock.iso(r.created_at),
  };
}

/** The account's virtual account, or 404. */
export function findVirtualAccount(core: SandboxCore, account: Account, code: string): VirtualAccountRow {
  const row = core.db.get<VirtualAccountRow>('SELECT * FROM virtual_accounts WHERE account_id = ? AND code = ?', account.id, code);
  if (!row) throw notFound('Virtual account');
  return row;
}

/** A new active virtual account at the sandbox's bank, with a zero balance. */
export function insertVirtualAccount(
  core: SandboxCore,
  row: Pick<VirtualAccountRow, 'code' | 'account_id' | 'customer_code' | 'currency' | 'account_holder_name'>,
): void {
  core.db.run(
    `INSERT INTO virtual_accounts (code, account_id, customer_code, currency, status, iban, bic_swift, bank_name, account_holder_name, balance_minor, created_at)
     VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, 0, ?)`,
    row.code,
    row.account_id,
    row.customer_code,
    row.currency,
    newIban(),
    VIRTUAL_ACCOUNT_BANK.bic,
    VIRTUAL_ACCOUNT_BANK.name,
    row.account_holder_name,
    core.clock.now(),
  );
}

export function setVirtualAccountBalance(core: SandboxCore, code: string, minor: number): void {
  core.db.run('UPDATE virtual_accounts SET balance_minor = ? WHERE code = ?', minor, code);
}
