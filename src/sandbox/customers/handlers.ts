// Customers (tag "Customers"): create (at least one active webhook endpoint first), list, get, update, activate,
// deactivate. The check other modules make before they create something or move money for a customer is in
// ./require.ts.
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { page, pageWindow } from '../core/context.js';
import { ApiError, apiError, notFound, stateError } from '../core/errors.js';
import type { SqlValue } from '../core/store.js';

export interface CustomerRow {
  code: string;
  account_id: number;
  external_reference: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  email: string | null;
  phone: string | null;
  status: components['schemas']['CustomerStatus'];
  restriction_reason: string | null;
  verification_level: components['schemas']['VerificationLevel'];
  created_at: number;
}

export function findCustomer(core: SandboxCore, accountId: number, code: string): CustomerRow | undefined {
  return core.db.get<CustomerRow>('SELECT * FROM customers WHERE account_id = ? AND code = ?', accountId, code);
}

/** The customer's `external_reference` (what every card event carries), or undefined for no such customer. */
export function externalReferenceOf(core: SandboxCore, accountId: number, code: string): string | undefined {
  return core.db.get<{ external_reference: string }>('SELECT external_reference FROM customers WHERE account_id = ? AND code = ?', accountId, code)?.external_reference;
}

/** 403 ACCOUNT_RESTRICTED (`customer_restricted`) for a restricted customer. */
export function restrictedError(message = 'The customer is restricted.'): ApiError {
  return apiError('ACCOUNT_RESTRICTED', message, { reason: 'customer_restricted', current_status: 'restricted' });
}

export function customerOf(core: SandboxCore, r: CustomerRow): components['schemas']['Customer'] {
  return {
    customer_code: r.code,
    external_reference: r.external_reference,
    first_name: r.first_name,
    last_name: r.last_name,
    date_of_birth: r.date_of_birth,
    email: r.email,
    phone: r.phone,
    status: r.status,
    restriction_reason: r.restriction_reason,
    verification_level: r.verification_level,
    created_at: core.clock.iso(r.created_at),
  };
}

export function customers(core: SandboxCore): Handlers {
  const { db, clock } = core;
  const find = (accountId: number, code: string): CustomerRow => {
    const row = findCustomer(core, accountId, code);
    if (!row) throw notFound('Customer');
    return row;
  };
  return {
    createCustomer({ account, body }) {
      return db.transaction(() => {
        const active = db.get<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = ? AND is_active = 1', account.id)!.n;
        if (active === 0) throw stateError('webhook_endpoint_required', 'Register an active webhook endpoint (POST /webhooks) before creating customers.');
        const code = randomUUID();
        db.run(
          `INSERT INTO customers (code, account_id, external_reference, first_name, last_name, date_of_birth, email, phone, status, restriction_reason, verification_level, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', NULL, 'basic', ?)`,
          code, account.id, body.external_reference, body.first_name, body.last_name, body.date_of_birth, body.email ?? null, body.phone ?? null, clock.now(),
        );
        return { data: customerOf(core, find(account.id, code)) };
      });
    },
    listCustomers({ account, query }) {
      const where = ['account_id = ?'];
      const args: SqlValue[] = [account.id];
      const filters = query as { status?: string; verification_level?: string; external_reference?: string };
      for (const column of ['status', 'verification_level', 'external_reference'] as const) {
        const value = filters[column];
        if (value === undefined) continue;
        where.push(`${column} = ?`);
        args.push(value);
      }
      const [limit, offset] = pageWindow(query);
      const rows = db.all<CustomerRow>(`SELECT * FROM customers WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ? OFFSET ?`, ...args, limit, offset);
      const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM customers WHERE ${where.join(' AND ')}`, ...args)!.n;
      return page(rows.map((r) => customerOf(core, r)), total, query);
    },
    getCustomer({ account, params }) {
      return { data: customerOf(core, find(account.id, params.customerCode)) };
    },
    activateCustomer({ account, params }) {
      return db.transaction(() => {
        const row = find(account.id, params.customerCode);
        if (row.status === 'restricted') throw restrictedError('The customer is restricted; activation does not lift a restriction.');
        db.run("UPDATE customers SET status = 'active' WHERE code = ?", row.code);
        return { data: customerOf(core, find(account.id, row.code)) };
      });
    },
    deactivateCustomer({ account, params }) {
      return db.transaction(() => {
        const row = find(account.id, params.customerCode);
        if (row.status === 'restricted') {
          throw restrictedError('A restricted customer cannot be deactivated: lift the restriction with POST /kyc/{customerCode}/synchronize first.');
        }
        db.run("UPDATE customers SET status = 'inactive' WHERE code = ?", row.code);
        return { data: customerOf(core, find(account.id, row.code)) };
      });
    },
    updateCustomer({ account, params, body }) {
      return db.transaction(() => {
        const row = find(account.id, params.customerCode);
        const identity = (['first_name', 'last_name', 'date_of_birth'] as const).filter((f) => body[f] !== undefined);
        if (identity.length > 0 && row.verification_level !== 'basic') {
          throw stateError('identity_already_verified', `KYC has verified this customer's identity: ${identity.join(', ')} can no longer be changed here (POST /kyc/{customerCode}/synchronize replaces it with the verified one).`, undefined, {
            fields: identity.map((field) => ({ field, message: 'cannot change once the identity is verified' })),
            current_verification_level: row.verification_level,
          });
        }
        const columns = (['external_reference', 'email', 'phone', 'first_name', 'last_name', 'date_of_birth'] as const).filter((f) => body[f] !== undefined);
        for (const column of columns) db.run(`UPDATE customers SET ${column} = ? WHERE code = ?`, body[column] ?? null, row.code);
        return { data: customerOf(core, find(account.id, row.code)) };
      });
    },
  };
}
