// Virtual accounts (tag "Virtual accounts"): EUR bank accounts for customers at the `full` verification
// level. Opening one is billed to the 'Ops Others' balance (provisional fee below). Deposits and outgoing
// transfers come from the simulation API and move the account's balance (minor units of its currency).
import { randomInt, randomUUID } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { page } from '../core/context.js';
import { notFound, stateError, validationError } from '../core/errors.js';
import { toAmount } from '../core/money.js';
import { customerPage, requireActiveCustomer } from '../customers/require.js';

/** Opening a virtual account (provisional): 5.00 USD from `others`. */
export const VIRTUAL_ACCOUNT_FEE_MINOR = 500;
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

function virtualAccountOf(clock: SandboxCore['clock'], r: VirtualAccountRow): components['schemas']['VirtualAccount'] {
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

export function findVirtualAccount(core: SandboxCore, account: Account, code: string): VirtualAccountRow {
  const row = core.db.get<VirtualAccountRow>('SELECT * FROM virtual_accounts WHERE account_id = ? AND code = ?', account.id, code);
  if (!row) throw notFound('Virtual account');
  return row;
}

/** Movements of a virtual account (simulation API): deposits in, transfers out. */
export function virtualAccountMovements(core: SandboxCore) {
  const { db, clock, outbox } = core;
  const base = (va: VirtualAccountRow, minor: number) => ({ virtual_account_code: va.code, customer_code: va.customer_code, amount: toAmount(minor), currency: va.currency });
  return {
    deposit(account: Account, va: VirtualAccountRow, minor: number, sender: string | null, reference: string | null): number {
      return db.transaction(() => {
        const after = va.balance_minor + minor;
        db.run('UPDATE virtual_accounts SET balance_minor = ? WHERE code = ?', after, va.code);
        outbox.emit(account, 'virtual_account.deposit_received', { ...base(va, minor), sender_name: sender, reference, received_at: clock.iso() });
        return after;
      });
    },
    /** An outgoing transfer: completed when the balance covers it and `failed` is not chosen; else failed. */
    transfer(account: Account, va: VirtualAccountRow, minor: number, reference: string | null, fail?: string): { transfer_id: string; status: 'completed' | 'failed'; reason: string | null; balance: number } {
      return db.transaction(() => {
        const transferId = `vat_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
        const reason = fail ?? (minor > va.balance_minor ? 'insufficient_funds' : null);
        if (reason !== null) {
          outbox.emit(account, 'virtual_account.transfer_failed', { ...base(va, minor), transfer_id: transferId, reference, reason, failed_at: clock.iso() });
          return { transfer_id: transferId, status: 'failed' as const, reason, balance: va.balance_minor };
        }
        const after = va.balance_minor - minor;
        db.run('UPDATE virtual_accounts SET balance_minor = ? WHERE code = ?', after, va.code);
        outbox.emit(account, 'virtual_account.transfer_completed', { ...base(va, minor), transfer_id: transferId, reference, completed_at: clock.iso() });
        return { transfer_id: transferId, status: 'completed' as const, reason: null, balance: after };
      });
    },
  };
}

export function virtualAccounts(core: SandboxCore): Handlers {
  const { db, clock, ledger } = core;
  return {
    createVirtualAccount({ account, body }) {
      return db.transaction(() => {
        const customer = requireActiveCustomer(core, account.id, body.customer_code);
        if (body.currency !== 'EUR') throw validationError('The sandbox opens EUR virtual accounts only.', [{ field: 'currency', message: 'must be EUR' }]);
        if (customer.verification_level !== 'full') {
          throw stateError('verification_level_too_low', 'A virtual account needs the customer at the full verification level (KYC and proof of address approved).', undefined, {
            current_verification_level: customer.verification_level,
            required_verification_level: 'full',
          });
        }
        const code = randomUUID();
        ledger.debit(account, 'others', VIRTUAL_ACCOUNT_FEE_MINOR, {
          reason: 'virtual_account_opening',
          description: `Opening of virtual account ${code}`,
          customerCode: customer.code,
          eventFields: { product: 'virtual_account' },
        });
        db.run(
          `INSERT INTO virtual_accounts (code, account_id, customer_code, currency, status, iban, bic_swift, bank_name, account_holder_name, balance_minor, created_at)
           VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, 0, ?)`,
          code, account.id, customer.code, body.currency, newIban(), VIRTUAL_ACCOUNT_BANK.bic, VIRTUAL_ACCOUNT_BANK.name, `${customer.first_name} ${customer.last_name}`, clock.now(),
        );
        return { data: virtualAccountOf(clock, findVirtualAccount(core, account, code)) };
      });
    },

    listVirtualAccounts({ account, query }) {
      const { rows, total } = customerPage<VirtualAccountRow>(core, account.id, 'virtual_accounts', 'code', query);
      return page(rows.map((r) => virtualAccountOf(clock, r)), total, query);
    },

    getVirtualAccount({ account, params }) {
      return { data: virtualAccountOf(clock, findVirtualAccount(core, account, params.code)) };
    },
  };
}
