// Webhook delivery faults (sandbox-only, designed): an account's plan of duplicated, delayed, reordered and failed
// deliveries, set through `PUT /sandbox/webhook-faults`. This module holds the plans and draws their choices;
// ./delivery.ts applies them. Every choice comes from one mulberry32 stream per plan, seeded by the plan's seed
// and reset when the plan is set: delivery codes are random, so a stream drawn in the order of the attempts (not
// a hash of the code) is what makes the same calls repeat the same faults. Plans are kept in memory, as the
// partner API's faults are: a restart clears them.
import type { components as simulation } from '../../../generated/sandbox.js';
import { copyOf, putBack } from './account-state.js';

export type WebhookFaultPlanView = simulation['schemas']['WebhookFaultPlan'];

export interface WebhookFaultSettings {
  seed: number;
  duplicateShare: number;
  failureShare: number;
  delayMs: number;
  /** First attempts held before they are released shuffled; null does not reorder. */
  reorderWindow: number | null;
}

interface Plan extends WebhookFaultSettings {
  state: number;
  /** Codes of first attempts held for reordering, in the order they were created. */
  held: string[];
}

const copyPlan = (plan: Plan): Plan => ({ ...plan, held: [...plan.held] });

export const NO_FAULTS: WebhookFaultSettings = { seed: 1, duplicateShare: 0, failureShare: 0, delayMs: 0, reorderWindow: null };

export class DeliveryFaults {
  private readonly plans = new Map<number, Plan>();

  /** Replaces the account's plan (and restarts its stream); returns the first attempts the old plan held. */
  set(accountId: number, settings: WebhookFaultSettings): string[] {
    const released = this.clear(accountId);
    this.plans.set(accountId, { ...settings, state: settings.seed >>> 0, held: [] });
    return released;
  }

  /** Removes the account's plan; returns the first attempts it held, in the order they were created. */
  clear(accountId: number): string[] {
    const held = this.plans.get(accountId)?.held ?? [];
    this.plans.delete(accountId);
    return held;
  }

  /** A copy of the plan of one account, or of every account (a snapshot keeps it). */
  save(accountId?: number): Map<number, unknown> {
    return copyOf(this.plans, accountId, copyPlan);
  }

  /** Puts back what `save` copied: the plan of the account, or of every account, becomes that (its stream where it was). */
  restore(saved: Map<number, unknown>, accountId?: number): void {
    putBack(this.plans, saved as Map<number, Plan>, accountId, copyPlan);
  }

  view(accountId: number): WebhookFaultPlanView {
    const plan = this.plans.get(accountId) ?? { ...NO_FAULTS, held: [] };
    return {
      seed: plan.seed,
      duplicate_share: plan.duplicateShare,
      failure_share: plan.failureShare,
      delay_seconds: plan.delayMs / 1000,
      reorder_window: plan.reorderWindow,
      held: plan.held.length,
    };
  }

  /** The clock time before which a first attempt waits (the event's time plus the plan's delay). */
  delayedUntil(accountId: number, createdAt: number): number {
    return createdAt + (this.plans.get(accountId)?.delayMs ?? 0);
  }

  /**
   * Holds a first attempt for reordering. Undefined when the plan does not reorder (attempt it now); otherwise
   * the codes to release, in the order to attempt them: empty until the window is full, then every held one.
   */
  hold(accountId: number, code: string): string[] | undefined {
    const plan = this.plans.get(accountId);
    if (!plan?.reorderWindow) return undefined;
    plan.held.push(code);
    if (plan.held.length < plan.reorderWindow) return [];
    const order = shuffle(plan.held, () => this.next(plan));
    plan.held = [];
    return order;
  }

  /** Whether this attempt fails without a post (the plan's failure share). */
  fails(accountId: number): boolean {
    const plan = this.plans.get(accountId);
    return plan !== undefined && plan.failureShare > 0 && this.next(plan) < plan.failureShare;
  }

  /** Whether this delivered attempt is posted a second time (the plan's duplicate share). */
  duplicates(accountId: number): boolean {
    const plan = this.plans.get(accountId);
    return plan !== undefined && plan.duplicateShare > 0 && this.next(plan) < plan.duplicateShare;
  }

  /** mulberry32: the next uniform draw in [0, 1) of the plan's stream. */
  private next(plan: Plan): number {
    plan.state = (plan.state + 0x6d2b79f5) >>> 0;
    let t = plan.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/**
 * A Fisher-Yates shuffle that never returns the order it was given (two or more items): a window released in
 * the order of creation would show a partner no reordering at all, so that draw is rotated by one.
 */
function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  if (out.length > 1 && out.every((item, i) => item === items[i])) out.push(out.shift() as T);
  return out;
}
