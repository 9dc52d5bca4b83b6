// The plan's monthly limits on cards (the contract's x-plans, read through core/limits.ts): cards created, and
// USD loaded on cards at creation and by top-ups.
import type { Account } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { planLimitReached } from '../core/errors.js';
import { contractLimits, forPlan } from '../core/limits.js';
import { formatAmount, toAmount } from '../core/money.js';
import { periodOf, usage } from '../core/usage.js';

/** The plan's limit of cards created per calendar month `period`. */
export function checkCreatedLimit(core: SandboxCore, account: Account, period: string): void {
  const createdLimit = forPlan(contractLimits().cardsCreatedPerMonth, account.plan);
  const created = usage(core.db, account.id, period, 'cards_created');
  if (createdLimit !== null && created >= createdLimit) {
    throw planLimitReached(`Your plan allows ${createdLimit} cards created per calendar month.`, {
      limit: 'cards_created_per_month',
      allowed: createdLimit,
      used: created,
    });
  }
}

/** The plan's limit of USD loaded on cards per calendar month (the contract's; Découverte only). */
export function checkLoadedLimit(core: SandboxCore, account: Account, minor: number): void {
  const limit = forPlan(contractLimits().loadedOnCardsPerMonthMinor, account.plan);
  if (limit === null) return;
  const loaded = usage(core.db, account.id, periodOf(core.clock.now()), 'usd_loaded_minor');
  if (loaded + minor > limit) {
    throw planLimitReached(`Your plan allows ${formatAmount(limit)} USD loaded on cards per calendar month.`, {
      limit: 'usd_loaded_per_month',
      allowed: toAmount(limit),
      used: toAmount(loaded),
    });
  }
}
