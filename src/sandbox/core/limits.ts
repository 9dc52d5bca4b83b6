// The limits the contract states, read from it: the "Plans and limits" table of the OpenAPI document's
// description (generated/openapi.json, `info.description`), the one place they are written. Each row gives
// the value on Découverte and, where it has one, on the other plans:
//   | Cards created | 25 per calendar month (Découverte); none otherwise |
// A table that no longer reads this way stops the sandbox at start, naming the row, rather than letting it
// apply a limit of its own.
import type { components as simulation } from '../../../generated/sandbox.js';
import { sandboxDocument } from './contract.js';
import { toMinor } from './money.js';

type Plan = simulation['schemas']['Plan'];

/** A limit on Découverte and on the other plans; null where the contract says "none" or gives no value. */
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
}

const NUMBER = /\d[\d,]*(?:\.\d+)?/;

/** The rows of the markdown tables of a text: first cell -> second cell. */
function tableRows(text: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of text.split('\n')) {
    const cells = line
      .trim()
      .match(/^\|(.*)\|$/)?.[1]
      ?.split('|')
      .map((c) => c.trim());
    if (cells && cells.length >= 2 && !/^-+$/.test(cells[0]!)) rows.set(cells[0]!, cells[1]!);
  }
  return rows;
}

/** The limits of the contract's "Plans and limits" table (`info.description` of a bundle). */
export function limitsOf(description: string): ContractLimits {
  const rows = tableRows(description);
  const cell = (label: string): string => {
    const value = rows.get(label);
    if (value === undefined) throw new Error(`the contract's limits table has no row "${label}"`);
    return value;
  };
  const numberIn = (label: string, text: string): number => {
    const found = text.match(NUMBER)?.[0];
    if (found === undefined) throw new Error(`the contract's limits table: no number in "${label}": "${text}"`);
    return Number(found.replaceAll(',', ''));
  };
  /** `30 per minute (Découverte); 100 per minute (Starter, ...)`, `25 ... (Découverte); none otherwise`. */
  const perPlan = (label: string, scale: (n: number) => number = (n) => n): PerPlan => {
    const parts = cell(label)
      .split(';')
      .map((p) => p.trim());
    const decouverte = parts.find((p) => p.includes('Découverte'));
    if (decouverte === undefined) throw new Error(`the contract's limits table: "${label}" gives no value for Découverte`);
    const others = parts.find((p) => p !== decouverte);
    const value = (part: string | undefined) => (part === undefined || /\bnone\b/.test(part) ? null : scale(numberIn(label, part)));
    return { decouverte: value(decouverte), others: value(others) };
  };
  const usd = (n: number) => toMinor(n);
  const withdrawal = cell('Card withdrawal');
  const minimum = withdrawal.match(/minimum ([\d.,]+) USD/)?.[1];
  const floor = withdrawal.match(/at least ([\d.,]+) USD must remain/)?.[1];
  if (minimum === undefined || floor === undefined) throw new Error(`the contract's limits table: "Card withdrawal" reads "${withdrawal}"`);
  return {
    requestsPerMinute: perPlan('Requests per API key'),
    cardsCreatedPerMonth: perPlan('Cards created'),
    loadedOnCardsPerMonthMinor: perPlan('Loaded on cards', usd),
    payoutsPerMonthMinor: perPlan('Payouts', usd),
    allowedIps: perPlan('Allowed IP addresses'),
    activeWebhookEndpoints: perPlan('Active webhook endpoints'),
    cardWithdrawalMinimumMinor: usd(numberIn('Card withdrawal', minimum)),
    cardWithdrawalFloorMinor: usd(numberIn('Card withdrawal', floor)),
    lowBalanceThresholdMinor: usd(numberIn('Low balance default threshold', cell('Low balance default threshold'))),
  };
}

let cached: ContractLimits | undefined;

/** The limits of the contract the sandbox serves. */
export function contractLimits(): ContractLimits {
  cached ??= limitsOf(String((sandboxDocument().info as { description?: string } | undefined)?.description ?? ''));
  return cached;
}

/** A plan's value of a limit. */
export const forPlan = (limit: PerPlan, plan: Plan): number | null => (plan === 'decouverte' ? limit.decouverte : limit.others);
