// `x-plans` (docs/extensions.md) holds the plans' limits, product access and fees as values, and the build writes
// the tables that say them in words (scripts/build/plans-tables.ts): into the bundle's info.description in place of
// spec/'s markers, and into the guides' regions. Each table is parsed back here, by its own reading of the words,
// and compared with x-plans, so a table that says another value, or leaves a limit out, fails.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillPlansRegions } from '../../scripts/build/plans-tables.ts';
import { GENERATED_DIR, ROOT } from '../../scripts/lib/paths.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { productValues } from '../../generated/sandbox-values.js';
import { contractModel } from '../../src/contract/model.ts';
import { built } from './helpers.ts';

const { openapi, dir, files } = built();
const plans = openapi['x-plans'] as any;
const description = String((openapi.info as JsonObject).description);
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const limits = plans.limits;
const fees = plans.fees;
const otherPlans = plans.plans.filter((p: string) => p !== 'decouverte');

/** The rows of the markdown table whose header row is `header`, each as its cells. */
function table(markdown: string, header: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(header);
  expect(start, `a table headed ${header}`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim()),
    );
  }
  return rows;
}

/** The cells of a table by its first cell. */
const byLabel = (rows: string[][]) => new Map(rows.map((r) => [r[0]!, r.slice(1)]));
/** The numbers a text says, in order: `5,000 USD; 1.50` -> [5000, 1.5]. */
const numbers = (text: string) => [...text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((m) => Number(m[0].replaceAll(',', '')));
/** Plan names in a cell's parentheses, as plan keys. */
const planKeys = (names: string) => names.split(', ').map((name) => Object.keys(plans.names).find((k) => plans.names[k] === name));

/** A per-plan cell, `30 per minute (Découverte); 100 per minute (Starter, Business, Premium)`, as `{ decouverte, others }`. */
function perPlan(cell: string): { decouverte: number | null; others: number | null } {
  const parts = cell.split('; ').map((part) => {
    const match = /^(.*) \(([^)]*)\)$/.exec(part);
    expect(match, cell).not.toBeNull();
    return { value: match![1] === 'none' ? null : numbers(match![1]!)[0]!, plans: planKeys(match![2]!) };
  });
  expect(parts.map((p) => p.plans)).toEqual([['decouverte'], otherPlans]);
  return { decouverte: parts[0]!.value, others: parts[1]!.value };
}

/** The limits table of a text, read back into the shape of `x-plans.limits`. */
function limitsOf(markdown: string): Record<string, unknown> {
  const rows = byLabel(table(markdown, '| Limit | Value |'));
  const cell = (label: string) => {
    const value = rows.get(label)?.[0];
    expect(value, label).toBeDefined();
    return value!;
  };
  const [minimum, remaining] = numbers(cell('Card withdrawal'));
  const [low, high] = numbers(cell('Page size `limit`'));
  expect(rows.size, 'one row per limit').toBe(12);
  return {
    requests_per_minute: perPlan(cell('Requests per API key')),
    cards_created_per_month: perPlan(cell('Cards created')),
    loaded_on_cards_per_month_usd: perPlan(cell('Loaded on cards')),
    payouts_per_month_usd: perPlan(cell('Payouts')),
    allowed_ip_addresses: perPlan(cell('Allowed IP addresses')),
    active_webhook_endpoints: perPlan(cell('Active webhook endpoints')),
    card_withdrawal_minimum_usd: minimum,
    card_withdrawal_remaining_usd: remaining,
    page_size: { minimum: low, maximum: high },
    page_minimum: numbers(cell('Page number `page`'))[0],
    webhook_timestamp_tolerance_seconds: numbers(cell('Webhook timestamp tolerance'))[0],
    webhook_response_timeout_seconds: numbers(cell('Webhook response time-out'))[0],
    low_balance_threshold_usd: numbers(cell('Low balance default threshold'))[0],
  };
}

/** The plans table of a text: Découverte's row and the other plans' row, read back. */
function plansOf(markdown: string) {
  const [first, rest, ...more] = table(markdown, '| Plan | Product access | Monthly limits |');
  expect(more).toEqual([]);
  const [name, access, monthly] = first!;
  const [cards, loaded, payouts] = numbers(monthly!);
  return {
    decouverte: {
      name: name!.replace(/ \(free\)$/, ''),
      free: name!.endsWith(' (free)'),
      virtualCardsOnly: access!.includes('virtual cards'),
      monthly: { cards_created_per_month: cards, loaded_on_cards_per_month_usd: loaded, payouts_per_month_usd: payouts },
    },
    others: { plans: planKeys(rest![0]!), access: rest![1], monthly: rest![2] },
  };
}

describe('x-plans', () => {
  it("the limits table of the bundle's info.description, read back, is x-plans' limits", () => {
    expect(limitsOf(description)).toEqual(limits);
  });

  it("the plans table of the bundle's info.description, read back, is x-plans' plans", () => {
    const table = plansOf(description);
    expect(table.decouverte.name).toBe(plans.names.decouverte);
    expect(table.decouverte.free).toBe(plans.free.includes('decouverte'));
    expect(table.decouverte.virtualCardsOnly).toBe(plans.card_categories.decouverte.join() === 'virtual');
    for (const [key, n] of Object.entries(table.decouverte.monthly)) expect(n, key).toBe(limits[key].decouverte);
    expect(table.others.plans).toEqual(otherPlans);
    // "every product", "none": what `all` and null say for the plans other than Découverte.
    expect([plans.tags.others, plans.card_categories.others]).toEqual(['all', 'all']);
    expect(table.others.access).toBe('every product');
    for (const key of Object.keys(table.decouverte.monthly)) expect(limits[key].others, key).toBeNull();
    expect(table.others.monthly).toBe('none');
  });

  it("spec/ holds markers, not tables, and no marker is left in the build's outputs or in generated/", () => {
    const source = read('spec/openapi.yaml');
    expect(source).toContain('<!-- x-plans: limits -->');
    expect(source).toContain('<!-- x-plans: plans -->');
    expect(source).not.toContain('| Limit | Value |');
    expect(source).not.toContain('| Plan | Product access |');
    for (const file of files) expect(fs.readFileSync(path.join(dir, file), 'utf8'), file).not.toMatch(/<!-- \/?x-plans/);
    for (const file of ['openapi.json', 'openapi.yaml'])
      expect(fs.readFileSync(path.join(ROOT, GENERATED_DIR, file), 'utf8'), `generated/${file}`).not.toMatch(/<!-- \/?x-plans/);
  });

  it("the guides' tables are the ones x-plans writes (npm run build), the same as the bundle's", () => {
    for (const file of ['docs/limits.md', 'docs/authentication.md']) {
      const guide = read(file);
      expect(guide, file).toMatch(/<!-- x-plans: [\w-]+ -->/);
      expect(fillPlansRegions(guide, plans), `${file}: run npm run build`).toBe(guide);
    }
    const guide = read('docs/limits.md');
    expect(table(guide, '| Limit | Value |')).toEqual(table(description, '| Limit | Value |'));
    expect(table(guide, '| Plan | Product access | Monthly limits |')).toEqual(
      table(description, '| Plan | Product access | Monthly limits |'),
    );
    const ips = byLabel(table(read('docs/authentication.md'), '| Plan | Allowed IP addresses |'));
    expect(ips.get(plans.names.decouverte)).toEqual([String(limits.allowed_ip_addresses.decouverte)]);
    expect(ips.get(otherPlans.map((p: string) => plans.names[p]).join(', '))).toEqual([String(limits.allowed_ip_addresses.others)]);
  });

  it("the API reference's markdown twin shows the bundle's tables", async () => {
    const { API_REFERENCE } = await import('../../scripts/docs/llms.ts');
    const { referenceMarkdown } = await import('../../scripts/docs/reference-markdown.ts');
    const page = referenceMarkdown(openapi, API_REFERENCE).body;
    for (const header of ['| Limit | Value |', '| Plan | Product access | Monthly limits |'])
      expect(table(page, header), header).toEqual(table(description, header));
  });

  it('docs/limits.md lists the fees of x-plans, as provisional', () => {
    const guide = read('docs/limits.md');
    const rows = byLabel(table(guide, '| Fee | Amount (USD) |'));
    const cell = (label: string) => numbers(rows.get(label)?.[0] ?? '');
    expect(cell('Card fee at creation')).toEqual([fees.card_fee_usd.virtual, fees.card_fee_usd.physical]);
    expect(cell('Service fee at creation')).toEqual([fees.service_fee_usd]);
    expect(cell('Top-up fee')).toEqual([fees.topup_fee.percent, fees.topup_fee.minimum_usd]);
    expect(cell('Card withdrawal fee')).toEqual(plans.plans.map((p: string) => fees.card_withdrawal_fee_usd[p]));
    expect(rows.get('Card withdrawal fee')?.[0]).toBe(
      plans.plans.map((p: string) => `${plans.names[p]} ${fees.card_withdrawal_fee_usd[p].toFixed(2)}`).join(', '),
    );
    expect(cell('Provider fee at termination')).toEqual([fees.provider_fee_usd]);
    expect(cell('Termination fee')).toEqual([fees.termination_fee_usd]);
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

  it('every operation of a tag a product of a subscription opens documents the 402 an account without that product gets', () => {
    const gated = new Set(
      Object.entries(plans.products).flatMap(([key, tags]) => (Array.isArray(tags) && !key.startsWith('x-') ? tags : [])),
    );
    const operations = contractModel(openapi).operations.filter((o) => gated.has(o.tag));
    expect(operations.length).toBeGreaterThan(20);
    const without = operations.filter((o) => !o.response(402)?.errorCodes.includes('PLAN_UPGRADE_REQUIRED'));
    expect(without.map((o) => `${o.method.toUpperCase()} ${o.path}`)).toEqual([]);
  });

  it("the simulation API's lists of products can hold every product", () => {
    const sandbox = JSON.parse(read('generated/sandbox.json')) as JsonObject;
    const model = contractModel(sandbox);
    const lists: { where: string; maxItems: unknown }[] = [];
    const visit = (node: unknown, at: string): void => {
      if (Array.isArray(node)) for (const [i, n] of node.entries()) visit(n, `${at}/${i}`);
      else if (node && typeof node === 'object') {
        const items = (node as JsonObject)['items'];
        if (items !== undefined && model.resolve(items).pointer === '/components/schemas/Product')
          lists.push({ where: at, maxItems: (node as JsonObject)['maxItems'] });
        for (const [k, v] of Object.entries(node)) visit(v, `${at}/${k}`);
      }
    };
    visit(model.doc, '');
    expect(lists.length).toBeGreaterThanOrEqual(2);
    for (const list of lists) expect(list.maxItems, list.where).toBeGreaterThanOrEqual(productValues.length);
  });

  it('card categories: Découverte issues the virtual cards of the Cards tag it opens; the other plans, every category', () => {
    expect(plans.tags.decouverte).toContain('Cards');
    expect(plans.card_categories.decouverte).toEqual(['virtual']);
    expect(plans.card_categories.others).toBe('all');
  });

  it("every sentence of the contract's prose and workflows that states a Découverte limit states x-plans' value", () => {
    /** Every string of a JSON document (descriptions, summaries, rules), with where it is. */
    const strings = (node: unknown, at: string): [string, string][] =>
      typeof node === 'string'
        ? [[at, node]]
        : Array.isArray(node)
          ? node.flatMap((n, i) => strings(n, `${at}/${i}`))
          : node && typeof node === 'object'
            ? Object.entries(node).flatMap(([k, v]) => strings(v, `${at}/${k}`))
            : [];
    const workflows = fs.readdirSync(path.join(ROOT, 'spec', 'workflows')).map((f) => `spec/workflows/${f}`);
    const texts: [string, string][] = [...strings(openapi, 'openapi'), ...workflows.map((f): [string, string] => [f, read(f)])];
    const amount = (text: string) => Number(text.replaceAll(',', ''));
    // Each way the prose words a limit, and the value of x-plans it names.
    const phrasings: [RegExp, number][] = [
      [/(\d[\d,]*) USD loaded on cards/g, limits.loaded_on_cards_per_month_usd.decouverte],
      [/loaded on cards: (\d[\d,]*) USD/g, limits.loaded_on_cards_per_month_usd.decouverte],
      [/(\d[\d,]*) USD of payouts/g, limits.payouts_per_month_usd.decouverte],
      [/payouts: (\d[\d,]*) USD per calendar month/g, limits.payouts_per_month_usd.decouverte],
      [/monthly payout limit \((\d[\d,]*) USD\)/g, limits.payouts_per_month_usd.decouverte],
      [/(\d+) cards created/g, limits.cards_created_per_month.decouverte],
      [/cards created: (\d+) per calendar month/g, limits.cards_created_per_month.decouverte],
      [/(\d+) per minute on Découverte/g, limits.requests_per_minute.decouverte],
    ];
    const found: string[] = [];
    const wrong: string[] = [];
    for (const [where, text] of texts) {
      for (const [pattern, value] of phrasings) {
        for (const m of text.matchAll(pattern)) {
          found.push(where);
          if (amount(m[1]!) !== value) wrong.push(`${where}: "${m[0]}" where x-plans says ${value}`);
        }
      }
    }
    expect(found.length).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  it('every plan has a name and a card withdrawal fee', () => {
    for (const plan of plans.plans) {
      expect(typeof plans.names[plan], plan).toBe('string');
      expect(typeof fees.card_withdrawal_fee_usd[plan], plan).toBe('number');
    }
  });
});
