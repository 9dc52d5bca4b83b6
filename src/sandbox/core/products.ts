// Product access: which products an account's subscription gives. By default the plan decides, as the contract's
// `x-plans.tags` says (Découverte: cards, KYC, proof of address and payouts; every other plan: every product). An account
// may instead hold an explicit list of products (`products` in --config or `PATCH /sandbox/account`), as the
// interface document's subscriptions do (Cards gives /cards and /kyc, Wallets gives /wallets ...): an operation
// of a tag the contract's `x-plans.products` gives a product outside the list answers 402 PLAN_UPGRADE_REQUIRED.
// Customers, balances, webhook endpoints and events are reachable with any subscription. Such an account holds only
// the ops balances of its products (and `others`), as each product module declares them (its product.ts).
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

/** A product of a subscription, as its product module declares it (`subscription` of its product.ts). */
export interface Subscription {
  product: Product;
  /** Its name in a refusal: `Wallets are not included in the plan Découverte.` */
  label: string;
  /** The ops balances it comes with. `others` (ACH payouts, verification billing, virtual account openings) is held by every account. */
  balances: readonly BalanceType[];
}

export class ProductAccess {
  private readonly db: Db;
  private readonly subscriptions: ReadonlyMap<Product, Subscription>;
  /** The lists of the most recently used accounts (the store holds them all). */
  private readonly cache = new BoundedMap<number, Product[] | null>(ACCOUNTS_IN_MEMORY);

  /** `subscriptions`: one for each product of the simulation API's `Product`, else this throws, naming it. */
  constructor(db: Db, subscriptions: readonly Subscription[]) {
    this.db = db;
    this.subscriptions = new Map(subscriptions.map((s) => [s.product, s]));
    const missing = PRODUCTS.filter((p) => !this.subscriptions.has(p));
    if (missing.length > 0) throw new Error(`no product module declares the subscription of ${missing.join(', ')}`);
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
    return list === null || type === 'others' || list.some((p) => this.subscriptions.get(p)!.balances.includes(type as BalanceType));
  }

  /** Why an operation of this tag is refused with 402 for the account, or undefined when it is allowed. */
  refusal(account: Account, tag: string): string | undefined {
    const { tags, productOfTag } = contractPlans();
    const product = productOfTag[tag];
    if (!product) return undefined;
    const { label } = this.subscriptions.get(product)!;
    const list = this.products(account.id);
    if (list !== null) return list.includes(product) ? undefined : `${label} is not among the products of this account's subscription.`;
    const open = account.plan === 'decouverte' ? tags.decouverte : tags.others;
    if (open !== null && !open.includes(tag)) return `${label} are not included in the plan ${planName(account.plan)}.`;
    return undefined;
  }
}
