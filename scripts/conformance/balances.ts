// The money a run needs, and the ops balances set back afterwards. A server that keeps its state keeps its
// balances too: what one run spent (or what a workflow set through the simulation API) is what the next run
// starts with. So before the set-up the suite reads the account's ops balances (GET /balance) and:
//   - with a simulation API (--simulation-url), raises each balance the run spends from to its budget, and any
//     negative one to 0 (a negative balance refuses every write), through `PUT /balances/{type}`;
//   - without one, names the operations that debit a balance short of its budget: their set-up and their
//     successful transactions are skipped with the reason, rather than sent to fail.
// After the run, every balance that moved is set back to what was read before it (with the simulation API), or
// reported as moved (without one).
import { bodyText, call, dataOf, join } from './http.ts';
import { simulate } from './simulation.ts';
import type { ConformanceConfig } from './types.ts';
import type { ResponseValidator } from './validate-response.ts';

/**
 * What a run spends at most from each balance, in USD, with room to spare: the set-up's and Dredd's cards of
 * 100 USD and top-ups of 50 (VISA, the request example's brand), two payouts of 500 USD (SEPA, the example
 * beneficiary's rail), gift card orders of 2 x 50, and the fees of virtual accounts, KYC and proof of address.
 */
export const BUDGET: Record<string, number> = { cards_visa: 1000, payout_sepa: 2000, gift_cards: 500, others: 100 };

/** The balance each operation that can be refused for money (400 INSUFFICIENT_BALANCE) debits, as the suite calls it. */
export const DEBITS: Record<string, string> = {
  'POST /cards': 'cards_visa',
  'POST /cards/{code}/topup': 'cards_visa',
  'POST /payouts': 'payout_sepa',
  'POST /gift-cards/orders': 'gift_cards',
  'POST /virtual-accounts': 'others',
};

const usd = (n: number) => `${n.toFixed(2)} USD`;

/** The account's ops balances by type, or the reason they could not be read. */
async function readBalances(config: ConformanceConfig): Promise<Map<string, number> | string> {
  try {
    const answer = await call(join(config.server, '/balance'), config.apiKey);
    const data = dataOf(answer);
    if (answer.status !== 200 || !Array.isArray(data)) return `GET /balance answered ${answer.status}: ${bodyText(answer.body, 300)}`;
    const held = new Map<string, number>();
    for (const b of data as { type?: unknown; balance?: unknown }[])
      if (typeof b?.type === 'string' && typeof b.balance === 'number') held.set(b.type, b.balance);
    return held;
  } catch (error) {
    return `GET /balance: ${(error as Error).message}`;
  }
}

async function setBalance(config: ConformanceConfig, type: string, balance: number): Promise<string | undefined> {
  try {
    const answer = await simulate(config, 'PUT', `/balances/${encodeURIComponent(type)}`, { balance });
    return answer.status === 200
      ? undefined
      : `PUT ${config.simulationUrl}/balances/${type} answered ${answer.status}: ${bodyText(answer.body, 300)}`;
  } catch (error) {
    return `PUT ${config.simulationUrl}/balances/${type}: ${(error as Error).message}`;
  }
}

export interface Funding {
  /** The balances read before the run (undefined when they could not be read). */
  start?: Map<string, number>;
  /** Operations whose balance is not in place, with the reason (`POST /cards` -> `needs cards_visa ...`). */
  unfunded: Record<string, string>;
  lines: string[];
}

/**
 * Reads the balances and, when `fund` (the run sends the checks and Dredd's transactions, which spend), brings
 * those the run spends from into place (see the module's comment). The workflows set their own.
 */
export async function fundRun(config: ConformanceConfig, validator: ResponseValidator, fund = true): Promise<Funding> {
  const operations = Object.keys(DEBITS).filter((op) => {
    const [method, path] = op.split(' ') as [string, string];
    return validator.operation(method, path) !== undefined;
  });
  const unfunded: Record<string, string> = {};
  const lines: string[] = [];
  const start = await readBalances(config);
  if (!fund) {
    if (typeof start === 'string') return { unfunded, lines: [`balances: ${start}; they will not be set back`] };
    for (const [type, balance] of start)
      if (balance < 0) lines.push(`balances: ${type} is ${usd(balance)}: while an ops balance is negative the server refuses every write`);
    return { start, unfunded, lines };
  }
  if (typeof start === 'string') {
    for (const op of operations)
      unfunded[op] = `the ops balances could not be read, so the money it spends cannot be brought into place: ${start}`;
    return { unfunded, lines: [`balances: ${start}`] };
  }
  const needed = new Map<string, number>();
  for (const op of operations) needed.set(DEBITS[op]!, BUDGET[DEBITS[op]!] ?? 0);
  for (const [type, balance] of start) if (balance < 0 && !needed.has(type)) needed.set(type, 0);
  for (const [type, need] of needed) {
    const balance = start.get(type);
    if (balance === undefined) {
      for (const op of operations.filter((o) => DEBITS[o] === type))
        unfunded[op] = `GET /balance lists no ${type} balance, which it debits`;
      continue;
    }
    if (balance >= need) continue;
    let problem: string | undefined;
    if (config.simulationUrl) {
      problem = await setBalance(config, type, need);
      if (!problem)
        lines.push(
          `balances: ${type} set from ${usd(balance)} to ${usd(need)} for the run (PUT ${config.simulationUrl}/balances/${type}); set back afterwards`,
        );
    } else {
      problem = `it holds ${usd(balance)}: fund the test account, or pass --simulation-url to let the suite set it`;
    }
    if (!problem) continue;
    const reason = `needs ${type} of at least ${usd(need)}: ${problem}`;
    for (const op of operations.filter((o) => DEBITS[o] === type)) unfunded[op] = reason;
    if (balance < 0)
      lines.push(`balances: ${type} is ${usd(balance)}: while an ops balance is negative the server refuses every write (${problem})`);
  }
  return { start, unfunded, lines };
}

/** Sets every balance that moved back to what was read before the run (with the simulation API), or says how it moved. */
export async function restoreBalances(
  config: ConformanceConfig,
  start: Map<string, number>,
): Promise<{ lines: string[]; problems: string[] }> {
  const now = await readBalances(config);
  if (typeof now === 'string') return { lines: [], problems: [`the balances could not be read to set them back: ${now}`] };
  const lines: string[] = [];
  const problems: string[] = [];
  const restored: string[] = [];
  for (const [type, before] of start) {
    const after = now.get(type);
    if (after === undefined || after === before) continue;
    if (!config.simulationUrl) {
      lines.push(`  ${type} moved from ${usd(before)} to ${usd(after)} (no simulation API to set it back)`);
      continue;
    }
    const problem = await setBalance(config, type, before);
    if (problem) problems.push(`${type} stays at ${usd(after)} (was ${usd(before)}): ${problem}`);
    else restored.push(`${type} ${usd(after)} -> ${usd(before)}`);
  }
  if (restored.length) lines.unshift(`  balances set back to what the run found: ${restored.join(', ')}`);
  return { lines, problems };
}
