// Partner accounts: zero setup. Any well-formed `sk_test_…` or `sk_live_…` key gets its own account on first
// use, with the default plan, funded ops balances and the loopback as its allowed addresses.
import type { components } from '../../../generated/openapi.js';
import { API_KEY_RULE, apiKeyMode } from '../../client/api-key.js';
import { balanceTypeOneOf0Values } from '../../../generated/openapi-values.js';
import type { components as simulation } from '../../../generated/sandbox.js';
import { planValues } from '../../../generated/sandbox-values.js';
import { BoundedMap } from './bounded-map.js';
import { ACCOUNTS_IN_MEMORY } from './bounds.js';
import type { Clock } from './clock.js';
import { constValues } from './contract.js';
import { contractLimits, forPlan } from './limits.js';
import type { Db } from './store.js';

/** The plans (the simulation API's `Plan`). */
export const PLANS = planValues;
export type Plan = simulation['schemas']['Plan'];
export type Mode = components['schemas']['Mode'];

export type BalanceType = components['schemas']['BalanceType'];
/** The ops balance types: the contract's named ones and its provisional `others` (a `const` branch). */
export const BALANCE_TYPES: readonly BalanceType[] = [...balanceTypeOneOf0Values, ...constValues<BalanceType>('BalanceType')];

export const LOOPBACK_IPS = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];

export interface AccountDefaults {
  plan: Plan;
  /** Opening amount of each ops balance, minor units. */
  openingMinor: Record<BalanceType, number>;
  lowThresholdMinor: number;
  allowedIps: string[];
  manual: boolean;
  /** Only keys already known (from the config or the simulation API) are accepted; others are unknown. */
  knownKeysOnly: boolean;
}

/** What each ops balance of a new account holds (designed): 10,000.00 USD. */
export const OPENING_BALANCE_MINOR = 1_000_000;

export const DEFAULT_ACCOUNT: AccountDefaults = {
  plan: 'starter',
  openingMinor: Object.fromEntries(BALANCE_TYPES.map((type) => [type, OPENING_BALANCE_MINOR])) as Record<BalanceType, number>,
  lowThresholdMinor: contractLimits().lowBalanceThresholdMinor,
  allowedIps: LOOPBACK_IPS,
  manual: false,
  knownKeysOnly: false,
};

export interface Account {
  id: number;
  apiKey: string;
  mode: Mode;
  plan: Plan;
  revoked: boolean;
  allowedIps: string[];
  /** Requests per minute, or null for the plan's (30 on Découverte, 100 otherwise). */
  rateLimit: number | null;
  /** Asynchronous outcomes wait to be chosen through the simulation API. */
  manual: boolean;
}

interface AccountRow {
  id: number;
  api_key: string;
  mode: string;
  plan: string;
  revoked: number;
  allowed_ips: string;
  rate_limit: number | null;
  manual: number;
}

const fromRow = (r: AccountRow): Account => ({
  id: r.id,
  apiKey: r.api_key,
  mode: r.mode as Mode,
  plan: r.plan as Plan,
  revoked: r.revoked === 1,
  allowedIps: JSON.parse(r.allowed_ips) as string[],
  rateLimit: r.rate_limit,
  manual: r.manual === 1,
});

/** The plan's requests per minute per key (the contract's limits table). */
export const planRateLimit = (plan: Plan): number => forPlan(contractLimits().requestsPerMinute, plan)!;

/** The mode of a key that follows the API key rule (the client's, src/client/api-key.ts). */
export function modeOfKey(key: string): Mode {
  const mode = apiKeyMode(key);
  if (mode === undefined) throw new Error(`not an API key: ${API_KEY_RULE}`);
  return mode;
}

export class Accounts {
  private readonly db: Db;
  private readonly clock: Clock;
  readonly defaults: AccountDefaults;
  /** The accounts of the most recently used keys (the store holds them all). */
  private readonly cache = new BoundedMap<string, Account>(ACCOUNTS_IN_MEMORY);
  /** What modules do for each new account, inside the transaction that makes it (a timer of its own). */
  private readonly created: ((account: Account) => void)[] = [];

  constructor(db: Db, clock: Clock, defaults: AccountDefaults) {
    this.db = db;
    this.clock = clock;
    this.defaults = defaults;
  }

  /** Calls `fn` with each account made from now on, on its clock, inside the transaction that makes it. */
  onCreated(fn: (account: Account) => void): void {
    this.created.push(fn);
  }

  /** How many accounts are held in memory (at most ACCOUNTS_IN_MEMORY). */
  get inMemory(): number {
    return this.cache.size;
  }

  /** The account of a well-formed key, or undefined when only known keys are accepted and this one is not. */
  known(apiKey: string): Account | undefined {
    if (this.cache.has(apiKey) || !this.defaults.knownKeysOnly) return this.resolve(apiKey);
    const row = this.db.get<AccountRow>('SELECT * FROM accounts WHERE api_key = ?', apiKey);
    return row ? this.resolve(apiKey) : undefined;
  }

  /** The account of a well-formed key, created with the defaults on first use. */
  resolve(apiKey: string): Account {
    const cached = this.cache.get(apiKey);
    if (cached) return cached;
    const account = this.db.transaction(() => {
      const row = this.db.get<AccountRow>('SELECT * FROM accounts WHERE api_key = ?', apiKey);
      if (row) return fromRow(row);
      const now = this.clock.now();
      this.db.run(
        'INSERT INTO accounts (api_key, mode, plan, revoked, allowed_ips, rate_limit, manual, created_at) VALUES (?, ?, ?, 0, ?, NULL, ?, ?)',
        apiKey,
        modeOfKey(apiKey),
        this.defaults.plan,
        JSON.stringify(this.defaults.allowedIps),
        this.defaults.manual ? 1 : 0,
        now,
      );
      const created = fromRow(this.db.get<AccountRow>('SELECT * FROM accounts WHERE api_key = ?', apiKey)!);
      for (const type of BALANCE_TYPES) {
        const opening = this.defaults.openingMinor[type];
        this.db.run(
          'INSERT INTO balances (account_id, type, minor, low_threshold_minor, negative_since, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
          created.id,
          type,
          opening,
          this.defaults.lowThresholdMinor,
          opening < 0 ? now : null,
          now,
        );
      }
      for (const fn of this.created) this.clock.within(created.id, () => fn(created));
      return created;
    });
    this.cache.set(apiKey, account);
    return account;
  }

  /** Forgets the kept account of a key, or of every key: its row was put back by a restored snapshot. */
  forget(apiKey?: string): void {
    if (apiKey === undefined) this.cache.clear();
    else this.cache.delete(apiKey);
  }

  byId(id: number): Account {
    return fromRow(this.db.get<AccountRow>('SELECT * FROM accounts WHERE id = ?', id)!);
  }

  /** Changes settings of an account (simulation API, --config). */
  update(apiKey: string, change: Partial<Pick<Account, 'plan' | 'revoked' | 'allowedIps' | 'rateLimit' | 'manual'>>): Account {
    const account = this.resolve(apiKey);
    const next = { ...account, ...change };
    this.db.run(
      'UPDATE accounts SET plan = ?, revoked = ?, allowed_ips = ?, rate_limit = ?, manual = ? WHERE id = ?',
      next.plan,
      next.revoked ? 1 : 0,
      JSON.stringify(next.allowedIps),
      next.rateLimit,
      next.manual ? 1 : 0,
      account.id,
    );
    this.cache.set(apiKey, next);
    return next;
  }
}
