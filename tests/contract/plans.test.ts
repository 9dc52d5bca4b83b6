// `x-plans` (docs/extensions.md) holds the plans' limits, product access and fees as values; the tables that say
// them in words (the "Plans and limits" section of info.description, docs/limits.md) are each row rendered from
// those values here, so a value changed in x-plans and not in a table, or the other way round, fails.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { productValues } from '../../generated/sandbox-values.js';
import { contractModel } from '../../src/contract/model.ts';
import { built } from './helpers.ts';

const { openapi } = built();
const plans = openapi['x-plans'] as any;
const description = String((openapi.info as JsonObject).description);
const guide = fs.readFileSync(path.join(ROOT, 'docs', 'limits.md'), 'utf8');
const limits = plans.limits;
const fees = plans.fees;
const d = (key: string) => limits[key].decouverte;
const o = (key: string) => limits[key].others;
/** 5000 -> `5,000`. */
const count = (n: number) => n.toLocaleString('en-US');
/** 1.5 -> `1.50`. */
const usd = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The rows of the limits table, in the words of the table. */
const LIMIT_ROWS = [
  `| Requests per API key | ${d('requests_per_minute')} per minute (Découverte); ${o('requests_per_minute')} per minute (Starter, Business, Premium) |`,
  `| Cards created | ${d('cards_created_per_month')} per calendar month (Découverte); none otherwise |`,
  `| Loaded on cards | ${count(d('loaded_on_cards_per_month_usd'))} USD per calendar month (Découverte); none otherwise |`,
  `| Payouts | ${count(d('payouts_per_month_usd'))} USD per calendar month (Découverte) |`,
  `| Allowed IP addresses | ${d('allowed_ip_addresses')} (Découverte); ${o('allowed_ip_addresses')} otherwise |`,
  `| Active webhook endpoints | ${d('active_webhook_endpoints')} (Découverte); ${o('active_webhook_endpoints')} otherwise |`,
  `| Card withdrawal | minimum ${limits.card_withdrawal_minimum_usd} USD; at least ${limits.card_withdrawal_remaining_usd} USD must remain on the card |`,
  `| Page size \`limit\` | ${limits.page_size.minimum} to ${limits.page_size.maximum} |`,
  `| Page number \`page\` | >= ${limits.page_minimum} |`,
  `| Webhook timestamp tolerance | ${limits.webhook_timestamp_tolerance_seconds} seconds |`,
  `| Webhook response time-out | ${limits.webhook_response_timeout_seconds} seconds |`,
  `| Low balance default threshold | ${limits.low_balance_threshold_usd} USD |`,
];

/** The Découverte row of the plans table. */
const PLAN_ROW = `| ${count(d('cards_created_per_month'))} cards created, ${count(d('loaded_on_cards_per_month_usd'))} USD loaded on cards, ${count(d('payouts_per_month_usd'))} USD of payouts, per calendar month |`;

const FEE_ROWS = [
  `| Card fee at creation | ${usd(fees.card_fee_usd.virtual)} virtual, ${usd(fees.card_fee_usd.physical)} physical |`,
  `| Service fee at creation | ${usd(fees.service_fee_usd)} |`,
  `| Top-up fee | ${fees.topup_fee.percent} % of the amount, at least ${usd(fees.topup_fee.minimum_usd)}, rounded to the cent |`,
  `| Card withdrawal fee | ${plans.plans.map((p: string) => `${plans.names[p]} ${usd(fees.card_withdrawal_fee_usd[p])}`).join(', ')} |`,
  `| Provider fee at termination | ${usd(fees.provider_fee_usd)} |`,
  `| Termination fee | ${usd(fees.termination_fee_usd)} |`,
];

describe('x-plans', () => {
  it("the limits table of info.description and of docs/limits.md says x-plans' limits", () => {
    for (const row of LIMIT_ROWS) {
      expect(description, 'info.description').toContain(row);
      expect(guide, 'docs/limits.md').toContain(row);
    }
    expect(description).toContain(PLAN_ROW);
    expect(guide).toContain(PLAN_ROW);
  });

  it('docs/limits.md lists the fees of x-plans, as provisional', () => {
    for (const row of FEE_ROWS) expect(guide).toContain(row);
    expect(guide).toMatch(/## Card fees\s+Provisional:/);
    expect(fees['x-provisional']).toBe(true);
  });

  it('the page size of x-plans is the Limit and Page parameters of the lists', () => {
    const limit = contractModel(openapi).component('parameters', 'Limit')?.node as any;
    const page = contractModel(openapi).component('parameters', 'Page')?.node as any;
    expect([limit.schema.minimum, limit.schema.maximum]).toEqual([limits.page_size.minimum, limits.page_size.maximum]);
    expect(page.schema.minimum).toBe(limits.page_minimum);
  });

  it("the card withdrawal minimum of x-plans is the withdrawal request's minimum", () => {
    const request = contractModel(openapi).schema('WithdrawFromCardRequest')?.node as any;
    expect(request.properties.amount.minimum).toBe(limits.card_withdrawal_minimum_usd);
  });

  it('product access: Découverte opens tags of the contract; the other plans open every tag', () => {
    const tags = new Set((openapi.tags as { name: string }[]).map((t) => t.name));
    for (const tag of plans.tags.decouverte) expect(tags.has(tag), tag).toBe(true);
    expect(plans.tags.others).toBe('all');
  });

  it("product access by subscription: each product of the simulation API's Product opens tags of the contract, each tag at most once", () => {
    const products = [...productValues].sort();
    const listed = Object.keys(plans.products).filter((key) => !key.startsWith('x-') && key !== 'description');
    expect(listed.slice().sort()).toEqual(products);
    const tags = new Set((openapi.tags as { name: string }[]).map((t) => t.name));
    const gated = listed.flatMap((product) => plans.products[product] as string[]);
    for (const tag of gated) expect(tags.has(tag), tag).toBe(true);
    expect(new Set(gated).size).toBe(gated.length);
  });

  it('every plan has a name and a card withdrawal fee', () => {
    for (const plan of plans.plans) {
      expect(typeof plans.names[plan], plan).toBe('string');
      expect(typeof fees.card_withdrawal_fee_usd[plan], plan).toBe('number');
    }
  });
});
