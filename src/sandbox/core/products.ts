// Product access: which products an account's subscription gives. By default the plan decides, as the contract's
// `x-plans.tags` says (Découverte: cards, KYC, proof of address and payouts; every other plan: every product). An account
// may instead hold an explicit list of products (`products` in --config or `PATCH /sandbox/account`), as the
// interface document's subscriptions do (Cards gives /cards and /kyc, Wallets gives /wallets ...): an operation
// of a product outside the list answers 402 PLAN_UPGRADE_REQUIRED. Customers, balances, webhook endpoints and
// events are reachable with any subscription. Such an account holds only the ops balances of its products (and
// `others`).
import type { components as simulation } from '../../../generated/sandbox.js';
import { productValues } from '../../../generated/sandbox-values.js';
import type { Account, BalanceType } from './accounts.js';
import { BoundedMap } from './bounded-map.js';
import { ACCOUNTS_IN_MEMORY } from './bounds.js';
import { contractPlans, planName } from './limits.js';
import type { Db } from './store.js';

/** The products of a subscription (the simulation API's `Product`). */
export const PRODUCTS = productValues;
export type Product = simulation['schemas']['Product'];

/** The product of each tag of the contract that a subscription gates (other tags are open to every account). */
const PRODUCT_OF_TAG: Record<string, Product> = {
  Cards: 'cards',
  KYC: 'cards',
  'Proof of address': 'cards',
  Wallets: 'wallets',
  'Virtual accounts': 'virtual_accounts',
  'Gift cards': 'gift_cards',
  Payouts: 'payouts',
};

/**
 * The ops balances each product comes with. `others` (ACH payouts, verification billing, virtual account
 * openings) is held by every account.
 */
const BALANCES_OF: Record<Product, readonly BalanceType[]> = {
  cards: ['cards_visa', 'cards_mastercard'],
  wallets: [],
  virtual_accounts: [],
  gift_cards: ['gift_cards'],
  payouts: ['payout_sepa'],
};

const LABEL: Record<Product, string> = {
  cards: 'Cards (cards, KYC and proof of address)',
  wallets: 'Wallets',
  virtual_accounts: 'Virtual accounts',
  gift_cards: 'Gift cards',
  payouts: 'Payouts',
};

export class ProductAccess {
  private readonly db: Db;
  /** The lists of the most recently used accounts (the store holds them all). */
  private readonly cache = new BoundedMap<number, Product[] | null>(ACCOUNTS_IN_MEMORY);

  constructor(db: Db) {
    this.db = db;
  }

  /** How many accounts' lists are held in memory (at most ACCOUNTS_IN_MEMORY). */
  get inMemory(): number {
    return this.cache.size;
  }

  /** The account's explicit list of products, or null when its plan decides. */
  products(accountId: number): Product[] | null {
    if (this.cache.has(accountId)) return this.cache.get(accountId)!;
    const row = this.db.get<{ products: string }>('SELECT products FROM account_products WHERE account_id = ?', accountId);
    const list = row ? (JSON.parse(row.products) as Product[]) : null;
    this.cache.set(accountId, list);
    return list;
  }

  /** Forgets the kept list of an account, or of every account: its row was put back by a restored snapshot. */
  forget(accountId?: number): void {
    if (accountId === undefined) this.cache.clear();
    else this.cache.delete(accountId);
  }

  /** Sets the account's list of products; null gives the plan's back. */
  set(accountId: number, products: Product[] | null): void {
    const list = products === null ? null : [...new Set(products)];
    if (list === null) this.db.run('DELETE FROM account_products WHERE account_id = ?', accountId);
    else this.db.run('INSERT OR REPLACE INTO account_products (account_id, products) VALUES (?, ?)', accountId, JSON.stringify(list));
    this.cache.set(accountId, list);
  }

  /**
   * Whether the account holds an ops balance of this type: every type when its plan decides; with a list of
   * products, `others` and the balances of those products (the others answer 404 on the balance operations).
   */
  holds(accountId: number, type: string): boolean {
    const list = this.products(accountId);
    return list === null || type === 'others' || list.some((p) => BALANCES_OF[p].includes(type as BalanceType));
  }

  /** Why an operation of this tag is refused with 402 for the account, or undefined when it is allowed. */
  refusal(account: Account, tag: string): string | undefined {
    const product = PRODUCT_OF_TAG[tag];
    if (!product) return undefined;
    const list = this.products(account.id);
    if (list !== null)
      return list.includes(product) ? undefined : `${LABEL[product]} is not among the products of this account's subscription.`;
    const tags = contractPlans().tags;
    const open = account.plan === 'decouverte' ? tags.decouverte : tags.others;
    if (open !== null && !open.includes(tag)) return `${LABEL[product]} are not included in the plan ${planName(account.plan)}.`;
    return undefined;
  }
}
