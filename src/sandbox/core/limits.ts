// The plans' limits and fees, read from the contract: `x-plans` at the root of generated/openapi.json
// (docs/extensions.md), the one place they are written as values. The tables of `info.description` say the
// limits in words for a reader; nothing here reads prose. A plan table missing a value stops the sandbox at
// start, naming it, rather than letting it apply a value of its own.
import type { components as simulation } from '../../../generated/sandbox.js';
import { get } from '../../contract/json.js';
import { contractModel } from '../../contract/model.js';
import { sandboxDocument, type JsonObject } from './contract.js';
import { toMinor } from './money.js';

type Plan = simulation['schemas']['Plan'];
type Product = simulation['schemas']['Product'];

/** A limit on Découverte and on the other plans; null where the contract says "none". */
export interface PerPlan {
  decouverte: number | null;
  others: number | null;
}

export interface ContractLimits {
  /** Requests per API key per minute. */
  requestsPerMinute: PerPlan;
  /** Cards created per calendar month. */
  cardsCreatedPerMonth: PerPlan;
  /** USD loaded on cards per calendar month, minor units. */
  loadedOnCardsPerMonthMinor: PerPlan;
  /** USD of payouts per calendar month, minor units. */
  payoutsPerMonthMinor: PerPlan;
  /** Allowed IP addresses per key. */
  allowedIps: PerPlan;
  /** Active webhook endpoints. */
  activeWebhookEndpoints: PerPlan;
  /** The smallest card withdrawal, minor units. */
  cardWithdrawalMinimumMinor: number;
  /** What must remain on a card after a withdrawal, minor units. */
  cardWithdrawalFloorMinor: number;
  /** The default low balance threshold of an ops balance, minor units. */
  lowBalanceThresholdMinor: number;
  /** How long a webhook receiver has to answer, milliseconds. */
  webhookResponseTimeoutMs: number;
  /** How old a signed timestamp may be, seconds. */
  webhookTimestampToleranceSeconds: number;
}

/** The card fees (provisional), minor units. */
export interface ContractFees {
  cardFeeMinor: { virtual: number; physical: number };
  serviceFeeMinor: number;
  /** The top-up fee: basis points of the amount (200 is 2 %), at least a minimum. */
  topUpFee: { basisPoints: number; minimumMinor: number };
  withdrawalFeeMinor: Record<Plan, number>;
  providerFeeMinor: number;
  terminationFeeMinor: number;
}

export interface ContractPlans {
  /** Each plan's name as partners read it: `decouverte` -> `Découverte`. */
  names: Record<Plan, string>;
  limits: ContractLimits;
  fees: ContractFees;
  /** The tags each plan opens: Découverte's list, and null for "all" on the other plans. */
  tags: { decouverte: string[] | null; others: string[] | null };
  /** The product of a subscription each tag it gates belongs to (`x-plans.products`); other tags are open to every account. */
  productOfTag: Record<string, Product>;
  /** The card categories each plan issues (Découverte: virtual), null for "all". */
  cardCategories: { decouverte: string[] | null; others: string[] | null };
}

/** `x-plans` of a bundle, read into minor units and checked. */
export function plansOf(document: JsonObject): ContractPlans {
  const root = contractModel(document).extension('x-plans');
  if (!root) throw new Error('the contract has no x-plans');
  const at = (where: string): unknown => get(root, `/${where.replaceAll('.', '/')}`);
  const number = (where: string): number => {
    const value = at(where);
    if (typeof value !== 'number') throw new Error(`the contract's x-plans has no number at ${where}`);
    return value;
  };
  const numberOrNone = (where: string): number | null => (at(where) === null ? null : number(where));
  const perPlan = (name: string, scale: (n: number) => number = (n) => n): PerPlan => {
    const value = (plan: string) => {
      const n = numberOrNone(`limits.${name}.${plan}`);
      return n === null ? null : scale(n);
    };
    return { decouverte: value('decouverte'), others: value('others') };
  };
  const listOrAll = (where: string): string[] | null => {
    const value = at(where);
    if (value === 'all') return null;
    if (!Array.isArray(value)) throw new Error(`the contract's x-plans has no ${where}`);
    return value as string[];
  };
  const plans = at('plans') as Plan[];
  return {
    names: Object.fromEntries(plans.map((p) => [p, String(at(`names.${p}`))])) as Record<Plan, string>,
    limits: {
      requestsPerMinute: perPlan('requests_per_minute'),
      cardsCreatedPerMonth: perPlan('cards_created_per_month'),
      loadedOnCardsPerMonthMinor: perPlan('loaded_on_cards_per_month_usd', toMinor),
      payoutsPerMonthMinor: perPlan('payouts_per_month_usd', toMinor),
      allowedIps: perPlan('allowed_ip_addresses'),
      activeWebhookEndpoints: perPlan('active_webhook_endpoints'),
      cardWithdrawalMinimumMinor: toMinor(number('limits.card_withdrawal_minimum_usd')),
      cardWithdrawalFloorMinor: toMinor(number('limits.card_withdrawal_remaining_usd')),
      lowBalanceThresholdMinor: toMinor(number('limits.low_balance_threshold_usd')),
      webhookResponseTimeoutMs: number('limits.webhook_response_timeout_seconds') * 1000,
      webhookTimestampToleranceSeconds: number('limits.webhook_timestamp_tolerance_seconds'),
    },
    fees: {
      cardFeeMinor: { virtual: toMinor(number('fees.card_fee_usd.virtual')), physical: toMinor(number('fees.card_fee_usd.physical')) },
      serviceFeeMinor: toMinor(number('fees.service_fee_usd')),
      // A percentage to basis points: 2 -> 200, 0.5 -> 50 (rounded: 0.07 * 100 is not an integer in binary).
      topUpFee: {
        basisPoints: Math.round(number('fees.topup_fee.percent') * 100),
        minimumMinor: toMinor(number('fees.topup_fee.minimum_usd')),
      },
      withdrawalFeeMinor: Object.fromEntries(plans.map((p) => [p, toMinor(number(`fees.card_withdrawal_fee_usd.${p}`))])) as Record<
        Plan,
        number
      >,
      providerFeeMinor: toMinor(number('fees.provider_fee_usd')),
      terminationFeeMinor: toMinor(number('fees.termination_fee_usd')),
    },
    tags: { decouverte: listOrAll('tags.decouverte'), others: listOrAll('tags.others') },
    productOfTag: productOfTag(at('products')),
    cardCategories: { decouverte: listOrAll('card_categories.decouverte'), others: listOrAll('card_categories.others') },
  };
}

/** `x-plans.products` (each product and the tags it opens), turned round: the product of each tag. */
function productOfTag(products: unknown): Record<string, Product> {
  if (!products || typeof products !== 'object') throw new Error("the contract's x-plans has no products");
  const entries = Object.entries(products).filter(([key]) => !key.startsWith('x-') && key !== 'description');
  return Object.fromEntries(entries.flatMap(([product, tags]) => (tags as string[]).map((tag) => [tag, product as Product])));
}

let cached: ContractPlans | undefined;

/** The plans of the contract the sandbox serves. */
export function contractPlans(): ContractPlans {
  cached ??= plansOf(sandboxDocument());
  return cached;
}

/** The limits of the contract the sandbox serves. */
export const contractLimits = (): ContractLimits => contractPlans().limits;

/** A plan's value of a limit. */
export const forPlan = (limit: PerPlan, plan: Plan): number | null => (plan === 'decouverte' ? limit.decouverte : limit.others);

/** Whether a plan issues cards of a category (Découverte: virtual cards only). */
export function issuesCategory(plan: Plan, category: string): boolean {
  const { cardCategories } = contractPlans();
  const categories = plan === 'decouverte' ? cardCategories.decouverte : cardCategories.others;
  return categories === null || categories.includes(category);
}

/** A plan's name as partners read it (`Découverte`). */
export const planName = (plan: Plan): string => contractPlans().names[plan];
