// Customers in the store, and their contract shape.
import type { components, operations } from '../../../generated/openapi.js';
import type { JsonObject } from '../../contract/json.js';
import { contractModel } from '../../contract/model.js';
import type { SandboxCore } from '../core/context.js';
import { sandboxDocument } from '../core/contract.js';
import type { SqlValue } from '../core/store.js';

/** A customer's row: the contract's fields, keyed by `code`, with its account and its creation time in ms. */
export type CustomerRow = Omit<components['schemas']['Customer'], 'customer_code' | 'created_at'> & {
  code: string;
  account_id: number;
  created_at: number;
};

/** A column a list of customers can be filtered on: a query parameter of `listCustomers` but the paging ones. */
type CustomerFilter = Exclude<keyof NonNullable<operations['listCustomers']['parameters']['query']>, 'page' | 'limit'>;
/** A column a partner can change: a property of `UpdateCustomerRequest` (`PATCH /customers/{customerCode}`). */
type CustomerUpdatable = keyof components['schemas']['UpdateCustomerRequest'];

let columns: { filters: CustomerFilter[]; updatable: CustomerUpdatable[] } | undefined;
/** The filter and updatable columns, read once from the contract (each an exact match of its field). */
function customerColumns(): { filters: CustomerFilter[]; updatable: CustomerUpdatable[] } {
  if (!columns) {
    const model = contractModel(sandboxDocument());
    const query = model.operation('listCustomers')?.parameters.filter((p) => p.in === 'query') ?? [];
    const update = (model.schema('UpdateCustomerRequest')?.node.properties ?? {}) as JsonObject;
    columns = {
      filters: query.map((p) => p.name).filter((n): n is CustomerFilter => n !== 'page' && n !== 'limit'),
      updatable: Object.keys(update) as CustomerUpdatable[],
    };
  }
  return columns;
}

export function findCustomer(core: SandboxCore, accountId: number, code: string): CustomerRow | undefined {
  return core.db.get<CustomerRow>('SELECT * FROM customers WHERE account_id = ? AND code = ?', accountId, code);
}

/** The customer's `external_reference` (what every card event carries), or undefined for no such customer. */
export function externalReferenceOf(core: SandboxCore, accountId: number, code: string): string | undefined {
  return core.db.get<{ external_reference: string }>(
    'SELECT external_reference FROM customers WHERE account_id = ? AND code = ?',
    accountId,
    code,
  )?.external_reference;
}

/** A new customer, active at the `basic` level. */
export function insertCustomer(
  core: SandboxCore,
  row: Pick<CustomerRow, 'code' | 'account_id' | 'external_reference' | 'first_name' | 'last_name' | 'date_of_birth' | 'email' | 'phone'>,
): void {
  core.db.run(
    `INSERT INTO customers (code, account_id, external_reference, first_name, last_name, date_of_birth, email, phone, status, restriction_reason, verification_level, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', NULL, 'basic', ?)`,
    row.code,
    row.account_id,
    row.external_reference,
    row.first_name,
    row.last_name,
    row.date_of_birth,
    row.email,
    row.phone,
    core.clock.now(),
  );
}

/** One page of the account's customers, most recent first, filtered on `filters` (exact matches). */
export function customerList(
  core: SandboxCore,
  accountId: number,
  filters: Partial<Record<CustomerFilter, string>>,
  limit: number,
  offset: number,
): { rows: CustomerRow[]; total: number } {
  const where = ['account_id = ?'];
  const args: SqlValue[] = [accountId];
  for (const column of customerColumns().filters) {
    const value = filters[column];
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    args.push(value);
  }
  const rows = core.db.all<CustomerRow>(
    `SELECT * FROM customers WHERE ${where.join(' AND ')} ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`,
    ...args,
    limit,
    offset,
  );
  const total = core.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM customers WHERE ${where.join(' AND ')}`, ...args)!.n;
  return { rows, total };
}

export function setCustomerStatus(core: SandboxCore, code: string, status: 'active' | 'inactive'): void {
  core.db.run('UPDATE customers SET status = ? WHERE code = ?', status, code);
}

/** The level KYC (`verified`) or an approved proof of address (`full`) gives the customer. */
export function setVerificationLevel(core: SandboxCore, code: string, level: CustomerRow['verification_level']): void {
  core.db.run('UPDATE customers SET verification_level = ? WHERE code = ?', level, code);
}

/** Restricts the customer, for the given reason. */
export function restrictCustomer(core: SandboxCore, code: string, reason: string): void {
  core.db.run("UPDATE customers SET status = 'restricted', restriction_reason = ? WHERE code = ?", reason, code);
}

/** Replaces the declared identity by the verified one and lifts the restriction (the customer is active again). */
export function replaceIdentity(
  core: SandboxCore,
  code: string,
  identity: { first_name: string; last_name: string; date_of_birth: string },
): void {
  core.db.run(
    "UPDATE customers SET first_name = ?, last_name = ?, date_of_birth = ?, status = 'active', restriction_reason = NULL WHERE code = ?",
    identity.first_name,
    identity.last_name,
    identity.date_of_birth,
    code,
  );
}

/** Sets the given columns of a customer (`null` clears one). */
export function setCustomerFields(core: SandboxCore, code: string, changes: Partial<Record<CustomerUpdatable, string | null>>): void {
  for (const column of customerColumns().updatable) {
    if (changes[column] !== undefined) core.db.run(`UPDATE customers SET ${column} = ? WHERE code = ?`, changes[column], code);
  }
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

/**
 * One page of an account's rows of a table that has `customer_code` and `created_at`, most recent first
 * (`created_at`, then `key` descending), only the customer's when `customerCode` is given.
 */
export function rowsByCustomer<Row>(
  core: SandboxCore,
  table: string,
  key: string,
  accountId: number,
  customerCode: string | undefined,
  limit: number,
  offset: number,
): { rows: Row[]; total: number } {
  const where = customerCode === undefined ? 'account_id = ?' : 'account_id = ? AND customer_code = ?';
  const args: SqlValue[] = customerCode === undefined ? [accountId] : [accountId, customerCode];
  const rows = core.db.all<Row>(
    `SELECT * FROM ${table} WHERE ${where} ORDER BY created_at DESC, ${key} DESC LIMIT ? OFFSET ?`,
    ...args,
    limit,
    offset,
  );
  const total = core.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, ...args)!.n;
  return { rows, total };
}
