// The tables of the plans are written from `x-plans` (scripts/build/plans-tables.ts): a marker line of a spec/
// description becomes its table at the marker's indentation, a region of a guide is rewritten between its markers,
// and a value or a row missing stops the build naming it rather than printing a table that says less than the data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  expandPlansMarkers,
  fillPlansRegions,
  hasPlansMarker,
  PlansTableError,
  renderPlansTable,
  writePlansGuides,
  type XPlans,
} from '../../scripts/build/plans-tables.ts';

/** A small x-plans of its own, so that each value below comes from here and not from spec/. */
const plans = (): XPlans => ({
  plans: ['decouverte', 'starter', 'premium'],
  names: { decouverte: 'Découverte', starter: 'Starter', premium: 'Premium' },
  free: ['decouverte'],
  tags: { decouverte: ['Cards', 'Payouts'], others: 'all' },
  card_categories: { decouverte: ['virtual'], others: 'all' },
  limits: {
    requests_per_minute: { decouverte: 7, others: 70 },
    cards_created_per_month: { decouverte: 3, others: null },
    loaded_on_cards_per_month_usd: { decouverte: 12000, others: null },
    payouts_per_month_usd: { decouverte: 900, others: null },
    allowed_ip_addresses: { decouverte: 4, others: 40 },
    active_webhook_endpoints: { decouverte: 2, others: 20 },
    card_withdrawal_minimum_usd: 6,
    card_withdrawal_remaining_usd: 8,
    page_size: { minimum: 2, maximum: 50 },
    page_minimum: 1,
    webhook_timestamp_tolerance_seconds: 120,
    webhook_response_timeout_seconds: 9,
    low_balance_threshold_usd: 2500,
  },
  fees: {
    card_fee_usd: { virtual: 3, physical: 12.5 },
    service_fee_usd: 2,
    topup_fee: { percent: 1.5, minimum_usd: 0.75 },
    card_withdrawal_fee_usd: { decouverte: 3, starter: 2, premium: 0.25 },
    provider_fee_usd: 0.4,
    termination_fee_usd: 1.2,
  },
});

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the tables of x-plans', () => {
  it('the plans table: Découverte with its products and monthly limits, then the other plans together', () => {
    expect(renderPlansTable(plans(), 'plans')).toEqual([
      '| Plan | Product access | Monthly limits |',
      '|---|---|---|',
      '| Découverte (free) | virtual cards, payouts (SEPA and ACH) | 3 cards created, 12,000 USD loaded on cards, 900 USD of payouts, per calendar month |',
      '| Starter, Premium | every product | none |',
    ]);
  });

  it('the limits table says every limit, by plan where it differs', () => {
    const table = renderPlansTable(plans(), 'limits');
    expect(table).toContain('| Requests per API key | 7 per minute (Découverte); 70 per minute (Starter, Premium) |');
    expect(table).toContain('| Loaded on cards | 12,000 USD per calendar month (Découverte); none (Starter, Premium) |');
    expect(table).toContain('| Card withdrawal | minimum 6 USD; at least 8 USD must remain on the card |');
    expect(table).toContain('| Page size `limit` | 2 to 50 |');
    expect(table).toContain('| Webhook response time-out | 9 seconds |');
    expect(table).toContain('| Low balance default threshold | 2,500 USD |');
    expect(table).toHaveLength(2 + 12);
  });

  it('the fees table gives amounts to the cent', () => {
    const table = renderPlansTable(plans(), 'fees');
    expect(table).toContain('| Card fee at creation | 3.00 virtual, 12.50 physical |');
    expect(table).toContain('| Top-up fee | 1.5 % of the amount, at least 0.75, rounded half up to the cent |');
    expect(table).toContain('| Card withdrawal fee | Découverte 3.00, Starter 2.00, Premium 0.25 |');
  });

  it('a limit that no row says, a missing value or an unknown table stops the build, naming it', () => {
    const extra = plans();
    extra.limits['gift_cards_per_day'] = 4;
    expect(() => renderPlansTable(extra, 'limits')).toThrow(/gift_cards_per_day: no row of the limits table/);
    const missing = plans();
    delete missing.limits['page_minimum'];
    expect(() => renderPlansTable(missing, 'limits')).toThrow(PlansTableError);
    expect(() => renderPlansTable(missing, 'limits')).toThrow(/x-plans\.limits\.page_minimum: missing/);
    expect(() => renderPlansTable(plans(), 'prices')).toThrow(/x-plans: prices -->: no such table/);
  });
});

describe('markers', () => {
  it("a marker line of a description becomes the table, at the marker's indentation, and leaves no marker", () => {
    const yaml = 'info:\n  description: |-\n    ## Plans\n\n    <!-- x-plans: allowed-ip-addresses -->\n\n    After.\n';
    const expanded = expandPlansMarkers(yaml, plans());
    expect(expanded).toBe(
      'info:\n  description: |-\n    ## Plans\n\n    | Plan | Allowed IP addresses |\n    |---|---|\n    | Découverte | 4 |\n    | Starter, Premium | 40 |\n\n    After.\n',
    );
    expect(hasPlansMarker(expanded)).toBe(false);
  });

  it("a guide's region is rewritten between its markers, and rewriting it again changes nothing", () => {
    const guide = 'Before.\n\n<!-- x-plans: allowed-ip-addresses -->\n| stale |\n<!-- /x-plans -->\n\nAfter.\n';
    const filled = fillPlansRegions(guide, plans());
    expect(filled).toBe(
      'Before.\n\n<!-- x-plans: allowed-ip-addresses -->\n| Plan | Allowed IP addresses |\n|---|---|\n| Découverte | 4 |\n| Starter, Premium | 40 |\n<!-- /x-plans -->\n\nAfter.\n',
    );
    expect(fillPlansRegions(filled, plans())).toBe(filled);
  });

  it('writePlansGuides names the stale guides, and rewrites them unless it only checks', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plans-guides-'));
    temps.push(root);
    fs.mkdirSync(path.join(root, 'docs'));
    const stale = '<!-- x-plans: limits -->\n<!-- /x-plans -->\n';
    fs.writeFileSync(path.join(root, 'docs', 'limits.md'), stale);
    fs.writeFileSync(path.join(root, 'docs', 'other.md'), 'No table.\n');
    expect(writePlansGuides(root, plans(), { check: true })).toEqual(['docs/limits.md']);
    expect(fs.readFileSync(path.join(root, 'docs', 'limits.md'), 'utf8')).toBe(stale);
    expect(writePlansGuides(root, plans())).toEqual(['docs/limits.md']);
    expect(fs.readFileSync(path.join(root, 'docs', 'limits.md'), 'utf8')).toContain('| Page number `page` | >= 1 |');
    expect(writePlansGuides(root, plans(), { check: true })).toEqual([]);
  });
});
