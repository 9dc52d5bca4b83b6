// The tables of the plans, their limits and their fees, written from `x-plans` (docs/extensions.md), so that a
// reader's table and a program's value are one fact written once. In spec/ a description holds a marker line,
// `<!-- x-plans: limits -->`, that the build replaces with the table in the bundle (expandPlansMarkers); a guide of
// docs/ holds the table between `<!-- x-plans: limits -->` and `<!-- /x-plans -->`, rewritten by `npm run build`
// (fillPlansRegions, writePlansGuides) and checked by tests/contract/plans.test.ts.
import fs from 'node:fs';
import path from 'node:path';

/** `x-plans` of the contract, as far as the tables read it. */
export interface XPlans {
  plans: string[];
  names: Record<string, string>;
  /** The plans that cost nothing. */
  free?: string[];
  tags: PerPlan<string[] | 'all'>;
  card_categories: PerPlan<string[] | 'all'>;
  limits: Record<string, unknown>;
  fees: Record<string, unknown>;
}

interface PerPlan<T> {
  decouverte: T;
  others: T;
}

/** A name of a table that a marker may ask for. */
export type PlansTableName = 'plans' | 'limits' | 'fees' | 'allowed-ip-addresses';

/** Each table by the name its marker gives. */
export const PLANS_TABLES: Record<PlansTableName, (x: XPlans) => string[]> = {
  plans: plansTable,
  limits: limitsTable,
  fees: feesTable,
  'allowed-ip-addresses': (x) => perPlanTable(x, 'Allowed IP addresses', 'allowed_ip_addresses'),
};

/** A marker of spec/: the whole line, its indentation, the table's name. */
const MARKER_LINE = /^([ \t]*)<!-- x-plans: ([\w-]+) -->[ \t]*$/gm;
/** A region of docs/: the opening marker, the table the build wrote, the closing marker. */
const REGION = /^<!-- x-plans: ([\w-]+) -->[ \t]*\n[\s\S]*?^<!-- \/x-plans -->[ \t]*$/gm;

/** Thrown on a marker naming no table, or a value of x-plans a table needs and does not find. */
export class PlansTableError extends Error {}

/** One table's markdown lines. */
export function renderPlansTable(x: XPlans, name: string): string[] {
  const render = PLANS_TABLES[name as PlansTableName];
  if (!render) throw new PlansTableError(`<!-- x-plans: ${name} -->: no such table (${Object.keys(PLANS_TABLES).join(', ')})`);
  return render(x);
}

/** Replaces every marker line with its table, each line at the marker's indentation (a YAML block scalar's). */
export function expandPlansMarkers(text: string, x: XPlans): string {
  return text.replace(MARKER_LINE, (_line, indent: string, name: string) =>
    renderPlansTable(x, name)
      .map((row) => indent + row)
      .join('\n'),
  );
}

/** Rewrites the table of every region of a markdown file, keeping its markers. */
export function fillPlansRegions(markdown: string, x: XPlans): string {
  return markdown.replace(REGION, (_region, name: string) =>
    [`<!-- x-plans: ${name} -->`, ...renderPlansTable(x, name), '<!-- /x-plans -->'].join('\n'),
  );
}

/**
 * The markdown files of `<root>/docs` whose regions are not the tables x-plans writes, relative to root: rewritten,
 * or with `check`, only named.
 */
export function writePlansGuides(root: string, x: XPlans, options: { check?: boolean } = {}): string[] {
  const dir = path.join(root, 'docs');
  const stale: string[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.md'))) {
    const full = path.join(dir, file);
    const text = fs.readFileSync(full, 'utf8');
    const filled = fillPlansRegions(text, x);
    if (filled === text) continue;
    stale.push(`docs/${file}`);
    if (!options.check) fs.writeFileSync(full, filled);
  }
  return stale;
}

/** Whether a text holds a marker of x-plans (a region's included). */
export const hasPlansMarker = (text: string): boolean => /<!-- x-plans: [\w-]+ -->/.test(text);

/** 5000 -> `5,000`. */
const count = (n: number) => n.toLocaleString('en-US');
/** 1.5 -> `1.50`. */
const usd = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A value of x-plans by its path (`limits.page_size.maximum`); a missing one stops the build, naming it. */
function value(x: XPlans, where: string): unknown {
  const found = where.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], x);
  if (found === undefined) throw new PlansTableError(`x-plans.${where}: missing, and a table of the plans says it`);
  return found;
}

function num(x: XPlans, where: string): number {
  const found = value(x, where);
  if (typeof found !== 'number') throw new PlansTableError(`x-plans.${where}: a number is expected`);
  return found;
}

/** Découverte's value of a per-plan limit, and the other plans'; null for "none". */
function perPlan(x: XPlans, key: string): PerPlan<number | null> {
  const one = (plan: keyof PerPlan<unknown>) => (value(x, `limits.${key}.${plan}`) === null ? null : num(x, `limits.${key}.${plan}`));
  return { decouverte: one('decouverte'), others: one('others') };
}

/** The plans other than Découverte, by name: `Starter, Business, Premium`. */
const otherNames = (x: XPlans) =>
  x.plans
    .filter((p) => p !== 'decouverte')
    .map((p) => x.names[p])
    .join(', ');

const row = (...cells: string[]) => `| ${cells.join(' | ')} |`;

/** The monthly limits, in the order and words of the plans table. */
const MONTHLY: [key: string, words: (n: number) => string][] = [
  ['cards_created_per_month', (n) => `${count(n)} cards created`],
  ['loaded_on_cards_per_month_usd', (n) => `${count(n)} USD loaded on cards`],
  ['payouts_per_month_usd', (n) => `${count(n)} USD of payouts`],
];

/** How each tag a plan opens is said in the plans table; the card categories qualify the cards. */
function access(x: XPlans, plan: keyof PerPlan<unknown>): string {
  const tags = x.tags[plan];
  const categories = x.card_categories[plan];
  if (tags === 'all' && categories === 'all') return 'every product';
  const open = tags === 'all' ? [] : tags;
  const words: string[] = [];
  const cards = categories === 'all' ? 'cards' : `${categories.join(' and ')} cards`;
  if (open.includes('Cards')) words.push(cards);
  if (open.includes('KYC') && open.includes('Proof of address')) words.push('KYC and POA endpoints');
  else if (open.includes('KYC')) words.push('KYC endpoints');
  else if (open.includes('Proof of address')) words.push('POA endpoints');
  if (open.includes('Payouts')) words.push('payouts (SEPA and ACH)');
  const said = new Set(['Cards', 'KYC', 'Proof of address', 'Payouts']);
  for (const tag of open) if (!said.has(tag)) words.push(tag.toLowerCase());
  return words.join(', ');
}

function monthly(x: XPlans, plan: keyof PerPlan<unknown>): string {
  const limits = MONTHLY.flatMap(([key, words]) => {
    const n = perPlan(x, key)[plan];
    return n === null ? [] : [words(n)];
  });
  return limits.length === 0 ? 'none' : `${limits.join(', ')}, per calendar month`;
}

/** Plan, product access, monthly limits: Découverte, then the other plans together. */
export function plansTable(x: XPlans): string[] {
  const free = (plan: string) => (x.free?.includes(plan) ? ' (free)' : '');
  return [
    row('Plan', 'Product access', 'Monthly limits'),
    '|---|---|---|',
    row(`${x.names['decouverte']}${free('decouverte')}`, access(x, 'decouverte'), monthly(x, 'decouverte')),
    row(otherNames(x), access(x, 'others'), monthly(x, 'others')),
  ];
}

/** A per-plan limit in words: `30 per minute (Découverte); 100 per minute (Starter, Business, Premium)`. */
function byPlan(x: XPlans, key: string, unit: (n: number) => string): string {
  const { decouverte, others } = perPlan(x, key);
  const say = (n: number | null) => (n === null ? 'none' : unit(n));
  return `${say(decouverte)} (${x.names['decouverte']}); ${say(others)} (${otherNames(x)})`;
}

/** The rows of the limits table: a label, and the value in words from the keys of `x-plans.limits` it reads. */
const LIMIT_ROWS: { label: string; keys: string[]; words: (x: XPlans) => string }[] = [
  {
    label: 'Requests per API key',
    keys: ['requests_per_minute'],
    words: (x) => byPlan(x, 'requests_per_minute', (n) => `${n} per minute`),
  },
  {
    label: 'Cards created',
    keys: ['cards_created_per_month'],
    words: (x) => byPlan(x, 'cards_created_per_month', (n) => `${count(n)} per calendar month`),
  },
  {
    label: 'Loaded on cards',
    keys: ['loaded_on_cards_per_month_usd'],
    words: (x) => byPlan(x, 'loaded_on_cards_per_month_usd', (n) => `${count(n)} USD per calendar month`),
  },
  {
    label: 'Payouts',
    keys: ['payouts_per_month_usd'],
    words: (x) => byPlan(x, 'payouts_per_month_usd', (n) => `${count(n)} USD per calendar month`),
  },
  { label: 'Allowed IP addresses', keys: ['allowed_ip_addresses'], words: (x) => byPlan(x, 'allowed_ip_addresses', String) },
  { label: 'Active webhook endpoints', keys: ['active_webhook_endpoints'], words: (x) => byPlan(x, 'active_webhook_endpoints', String) },
  {
    label: 'Card withdrawal',
    keys: ['card_withdrawal_minimum_usd', 'card_withdrawal_remaining_usd'],
    words: (x) =>
      `minimum ${num(x, 'limits.card_withdrawal_minimum_usd')} USD; at least ${num(x, 'limits.card_withdrawal_remaining_usd')} USD must remain on the card`,
  },
  {
    label: 'Page size `limit`',
    keys: ['page_size'],
    words: (x) => `${num(x, 'limits.page_size.minimum')} to ${num(x, 'limits.page_size.maximum')}`,
  },
  { label: 'Page number `page`', keys: ['page_minimum'], words: (x) => `>= ${num(x, 'limits.page_minimum')}` },
  {
    label: 'Webhook timestamp tolerance',
    keys: ['webhook_timestamp_tolerance_seconds'],
    words: (x) => `${num(x, 'limits.webhook_timestamp_tolerance_seconds')} seconds`,
  },
  {
    label: 'Webhook response time-out',
    keys: ['webhook_response_timeout_seconds'],
    words: (x) => `${num(x, 'limits.webhook_response_timeout_seconds')} seconds`,
  },
  {
    label: 'Low balance default threshold',
    keys: ['low_balance_threshold_usd'],
    words: (x) => `${count(num(x, 'limits.low_balance_threshold_usd'))} USD`,
  },
];

/** Every limit of x-plans, one row each; a limit no row says stops the build, so the table cannot leave one out. */
export function limitsTable(x: XPlans): string[] {
  const said = new Set(LIMIT_ROWS.flatMap((r) => r.keys));
  const unsaid = Object.keys(x.limits).filter((key) => !said.has(key));
  if (unsaid.length > 0)
    throw new PlansTableError(`x-plans.limits: ${unsaid.join(', ')}: no row of the limits table says it (scripts/build/plans-tables.ts)`);
  return [row('Limit', 'Value'), '|---|---|', ...LIMIT_ROWS.map((r) => row(r.label, r.words(x)))];
}

/** One per-plan limit by plan: `| Découverte | 2 |`, then the other plans together. */
export function perPlanTable(x: XPlans, heading: string, key: string): string[] {
  const { decouverte, others } = perPlan(x, key);
  const say = (n: number | null) => (n === null ? 'none' : count(n));
  return [row('Plan', heading), '|---|---|', row(x.names['decouverte']!, say(decouverte)), row(otherNames(x), say(others))];
}

/** The card fees (provisional), in USD. */
export function feesTable(x: XPlans): string[] {
  const fee = (where: string) => usd(num(x, `fees.${where}`));
  const withdrawal = x.plans.map((p) => `${x.names[p]} ${fee(`card_withdrawal_fee_usd.${p}`)}`).join(', ');
  return [
    row('Fee', 'Amount (USD)'),
    '|---|---|',
    row('Card fee at creation', `${fee('card_fee_usd.virtual')} virtual, ${fee('card_fee_usd.physical')} physical`),
    row('Service fee at creation', fee('service_fee_usd')),
    row(
      'Top-up fee',
      `${num(x, 'fees.topup_fee.percent')} % of the amount, at least ${fee('topup_fee.minimum_usd')}, rounded half up to the cent`,
    ),
    row('Card withdrawal fee', withdrawal),
    row('Provider fee at termination', fee('provider_fee_usd')),
    row('Termination fee', fee('termination_fee_usd')),
  ];
}
