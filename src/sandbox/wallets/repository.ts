// Wallets and their withdrawals in the store, their contract shapes, and the addresses and hashes the sandbox
// makes. Amounts are held in micro units (6 decimal places).
import { randomBytes } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { SandboxCore } from '../core/context.js';

export interface WalletRow {
  id: string;
  account_id: number;
  customer_code: string;
  currency: components['schemas']['WalletCurrency'];
  network: string;
  address: string;
  balance_micro: number;
  created_at: number;
}

export interface WithdrawalRow {
  code: string;
  account_id: number;
  wallet_id: string;
  amount_micro: number;
  commission_micro: number;
  network_fee_micro: number;
  to_address: string;
  status: 'processing' | 'completed' | 'failed';
  tx_id: string;
  failure_reason: string | null;
  requested_at: number;
}

export const toMicro = (amount: number): number => Math.round(amount * 1_000_000);
export const fromMicro = (micro: number): number => micro / 1_000_000;

/** A collection address of the network's shape: `T` and 33 base58 characters on tron, `0x` and 40 hex otherwise. */
export function newAddress(network: string): string {
  if (network === 'tron') {
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    return `T${[...randomBytes(33)].map((b) => alphabet[b % alphabet.length]).join('')}`;
  }
  return `0x${randomBytes(20).toString('hex')}`;
}

export const newTxHash = (): string => `0x${randomBytes(32).toString('hex')}`;

export function walletOf(clock: SandboxCore['clock'], r: WalletRow): components['schemas']['Wallet'] {
  return {
    id: r.id,
    customer_code: r.customer_code,
    currency: r.currency,
    network: r.network,
    address: r.address,
    balance: fromMicro(r.balance_micro),
    created_at: clock.iso(r.created_at),
  };
}

export function withdrawalOf(core: SandboxCore, r: WithdrawalView): components['schemas']['WalletWithdrawal'] {
  const fees = r.commission_micro + r.network_fee_micro;
  return {
    code: r.code,
    blockchain: r.network,
    currency: r.currency,
    amount: fromMicro(r.amount_micro),
    commission: fromMicro(r.commission_micro),
    network_fee: fromMicro(r.network_fee_micro),
    total_fee: fromMicro(fees),
    net_amount: fromMicro(r.amount_micro - fees),
    to_address: r.to_address,
    status: r.status,
    tx_id: r.tx_id,
    requested_at: core.clock.iso(r.requested_at),
  };
}

/** A withdrawal with its wallet's currency and network (what its contract shape shows). */
export type WithdrawalView = WithdrawalRow & { currency: string; network: string };

export function insertWallet(
  core: SandboxCore,
  row: Pick<WalletRow, 'id' | 'account_id' | 'customer_code' | 'currency' | 'network' | 'address'>,
): void {
  core.db.run(
    'INSERT INTO wallets (id, account_id, customer_code, currency, network, address, balance_micro, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)',
    row.id,
    row.account_id,
    row.customer_code,
    row.currency,
    row.network,
    row.address,
    core.clock.now(),
  );
}

export function walletById(core: SandboxCore, id: string): WalletRow | undefined {
  return core.db.get<WalletRow>('SELECT * FROM wallets WHERE id = ?', id);
}

/** The withdrawal with its wallet's currency and network. */
export function withdrawalView(core: SandboxCore, w: WithdrawalRow): WithdrawalView {
  const wallet = core.db.get<{ currency: string; network: string }>('SELECT currency, network FROM wallets WHERE id = ?', w.wallet_id)!;
  return { ...w, ...wallet };
}

/** One page of the account's withdrawals, most recent first. */
export function withdrawalPage(
  core: SandboxCore,
  accountId: number,
  limit: number,
  offset: number,
): { rows: WithdrawalView[]; total: number } {
  const rows = core.db.all<WithdrawalView>(
    `SELECT w.*, x.currency AS currency, x.network AS network FROM wallet_withdrawals w JOIN wallets x ON x.id = w.wallet_id
     WHERE w.account_id = ? ORDER BY w.requested_at DESC, w.code DESC LIMIT ? OFFSET ?`,
    accountId,
    limit,
    offset,
  );
  const total = core.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM wallet_withdrawals WHERE account_id = ?', accountId)!.n;
  return { rows, total };
}

export function accountWallet(core: SandboxCore, accountId: number, id: string): WalletRow | undefined {
  return core.db.get<WalletRow>('SELECT * FROM wallets WHERE account_id = ? AND id = ?', accountId, id);
}

export function withdrawalByCode(core: SandboxCore, code: string): WithdrawalRow | undefined {
  return core.db.get<WithdrawalRow>('SELECT * FROM wallet_withdrawals WHERE code = ?', code);
}

export function updateWalletBalance(core: SandboxCore, id: string, micro: number): void {
  core.db.run('UPDATE wallets SET balance_micro = ? WHERE id = ?', micro, id);
}

/** Adds `micro` (negative to take) to the wallet's balance as it stands in the store. */
export function addToWalletBalance(core: SandboxCore, id: string, micro: number): void {
  core.db.run('UPDATE wallets SET balance_micro = balance_micro + ? WHERE id = ?', micro, id);
}

/** A new withdrawal, `processing`. */
export function insertWithdrawal(
  core: SandboxCore,
  row: Pick<
    WithdrawalRow,
    | 'code'
    | 'account_id'
    | 'wallet_id'
    | 'amount_micro'
    | 'commission_micro'
    | 'network_fee_micro'
    | 'to_address'
    | 'tx_id'
    | 'requested_at'
  >,
): void {
  core.db.run(
    `INSERT INTO wallet_withdrawals (code, account_id, wallet_id, amount_micro, commission_micro, network_fee_micro, to_address, status, tx_id, failure_reason, requested_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'processing', ?, NULL, ?)`,
    row.code,
    row.account_id,
    row.wallet_id,
    row.amount_micro,
    row.commission_micro,
    row.network_fee_micro,
    row.to_address,
    row.tx_id,
    row.requested_at,
  );
}

export function markWithdrawalCompleted(core: SandboxCore, code: string): void {
  core.db.run("UPDATE wallet_withdrawals SET status = 'completed' WHERE code = ?", code);
}

export function markWithdrawalFailed(core: SandboxCore, code: string, reason: string): void {
  core.db.run("UPDATE wallet_withdrawals SET status = 'failed', failure_reason = ? WHERE code = ?", reason, code);
}
