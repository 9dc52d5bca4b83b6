// The asynchronous outcomes of cards: issuance (active or failed with a refund), top-ups (applied, or
// failed with a refund) and terminations that wait on the card provider. By default each completes by itself,
// happily, `autoCompleteMs` of the clock after the request; on a manual account it waits for the simulation
// API. The simulation API also arms the card provider's next answer for a card: a withdrawal it fails, a
// termination it does not complete at once (kept in memory, like faults: a restart clears them).
import { randomInt } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import { perCore, type SandboxCore } from '../core/context.js';
import { apiError, notFound } from '../core/errors.js';
import { toAmount } from '../core/money.js';
import { externalReferenceOf } from '../customers/repository.js';
import { autoOutcomeHint } from '../core/auto-outcome-hint.js';
import { PROVIDER_FEE_MINOR, TERMINATION_FEE_MINOR } from './fees.js';
import { CardRepository, balanceTypeOf, newPan, type CardRow, type TopUpRow } from './repository.js';
import { defineJob, type Job } from '../core/scheduler.js';
import type { SnapshotPart, SnapshotScope } from '../core/snapshots.js';

/** The automatic issuance of a pending card: activated. */
export const ISSUE_JOB = defineJob<{ card: string }>(
  'card.issue',
  (core, { card: code }) => {
    const lifecycle = cardLifecycle(core);
    const card = lifecycle.repo.byCode(code);
    if (card?.status === 'pending') lifecycle.issue(card, { outcome: 'activated' });
  },
  { automatic: true },
);

/** The automatic outcome of a pending top-up: completed. */
export const TOPUP_JOB = defineJob<{ topup: string }>(
  'card.topup',
  (core, { topup }) => {
    const lifecycle = cardLifecycle(core);
    const topUp = lifecycle.repo.topUp(topup);
    if (topUp?.status === 'pending') lifecycle.completeTopUp(topUp, { outcome: 'completed' });
  },
  { automatic: true },
);

/** The card provider's completion of a termination it did not complete at once. */
export const TERMINATION_JOB = defineJob<{ card: string }>(
  'card.termination',
  (core, { card: code }) => {
    const lifecycle = cardLifecycle(core);
    const card = lifecycle.repo.byCode(code);
    if (card && lifecycle.repo.pendingTermination(card.code) !== undefined) lifecycle.completeTermination(card);
  },
  { automatic: true },
);

/** The default `reason` of `card.withdrawal.failed`. */
export const WITHDRAWAL_FAILURE_REASON = 'provider_error';

type CardTermination = components['schemas']['CardTermination'];

/**
 * The base fields of a card event whose schema pins the card's status (`card.frozen` carries `frozen`): the card
 * must have that status.
 */
export function cardEventIn<S extends CardRow['status']>(
  core: SandboxCore,
  card: CardRow,
  status: S,
): components['schemas']['CardEventBase'] & { status: S } {
  if (card.status !== status) throw new Error(`card ${card.code} is ${card.status}, not ${status}`);
  return { ...cardEventBase(core, card), status };
}

/** The base fields of every card event. */
export function cardEventBase(core: SandboxCore, card: CardRow): components['schemas']['CardEventBase'] {
  return {
    card_code: card.code,
    customer_code: card.customer_code,
    external_reference: externalReferenceOf(core, card.account_id, card.customer_code) ?? '',
    product_code: card.product_code,
    brand: card.brand,
    status: card.status,
    last_four: card.last_four,
    balance: toAmount(card.balance_minor),
    currency: 'USD',
  };
}

export class CardLifecycle {
  private readonly core: SandboxCore;
  readonly repo: CardRepository;
  /** Cards whose next withdrawal the card provider fails, with the reason. */
  private readonly withdrawalFailures = new Map<string, string>();
  /** Cards whose next termination the card provider does not complete at once. */
  private readonly terminationDelays = new Set<string>();

  constructor(core: SandboxCore) {
    this.core = core;
    this.repo = new CardRepository(core.db);
  }

  /**
   * The card provider's armed answers in a snapshot: those of the scope's cards. A restore (after the rows) drops
   * the answers of the scope's cards, and of cards no longer stored (made after the snapshot), then puts back the saved.
   */
  snapshotPart(): SnapshotPart {
    const inScope = (code: string, scope: SnapshotScope) => scope === 'sandbox' || this.repo.byCode(code)?.account_id === scope.accountId;
    const gone = (code: string, scope: SnapshotScope) => !this.repo.byCode(code) || inScope(code, scope);
    return {
      save: (scope) => ({
        failures: [...this.withdrawalFailures].filter(([code]) => inScope(code, scope)),
        delays: [...this.terminationDelays].filter((code) => inScope(code, scope)),
      }),
      restore: (scope, saved) => {
        for (const code of [...this.withdrawalFailures.keys()]) if (gone(code, scope)) this.withdrawalFailures.delete(code);
        for (const code of [...this.terminationDelays]) if (gone(code, scope)) this.terminationDelays.delete(code);
        const { failures = [], delays = [] } = (saved ?? {}) as { failures?: [string, string][]; delays?: string[] };
        for (const [code, reason] of failures) this.withdrawalFailures.set(code, reason);
        for (const code of delays) this.terminationDelays.add(code);
      },
    };
  }

  /** Arms the card provider to fail the card's next withdrawal (simulation API). */
  armWithdrawalFailure(card: CardRow, reason: string): void {
    this.withdrawalFailures.set(card.code, reason);
  }

  /** The reason of the card's armed withdrawal failure, disarmed as it is taken; undefined when none is armed. */
  takeWithdrawalFailure(card: CardRow): string | undefined {
    const reason = this.withdrawalFailures.get(card.code);
    this.withdrawalFailures.delete(card.code);
    return reason;
  }

  /** Arms the card provider not to complete the card's next termination at once (simulation API). */
  armTerminationDelay(card: CardRow): void {
    this.terminationDelays.add(card.code);
  }

  /**
   * Terminates a usable card (inside a transaction): at once, or, when a delay is armed, pending on the card
   * provider (`card.termination_pending`; `card.terminated` follows). A card whose termination is pending
   * answers that pending state again, without a new event.
   */
  terminate(account: Account, card: CardRow): CardTermination {
    const pending: CardTermination = {
      card_code: card.code,
      status: 'pending',
      card_status: card.status,
      refunded_amount: null,
      card_balance_at_closure: null,
      provider_fee: null,
      termination_fee: null,
      credited_balance: balanceTypeOf(card.brand),
      currency: 'USD',
    };
    if (this.repo.pendingTermination(card.code) !== undefined) return pending;
    if (this.terminationDelays.delete(card.code)) {
      this.repo.insertTermination(account.id, card.code, this.core.clock.now());
      this.core.outbox.emit(account, 'card.termination_pending', cardEventBase(this.core, card));
      this.scheduleAuto(account, TERMINATION_JOB, { card: card.code });
      return pending;
    }
    return this.completeTermination(card);
  }

  /**
   * Closes a card: its pending top-ups fail (refunded), the provider and termination fees are taken from its
   * balance (never more than it), the rest is returned to its brand's ops balance, it becomes `cancelled`, and
   * `card.terminated` is sent.
   */
  completeTermination(card: CardRow): CardTermination {
    const { db, ledger, outbox } = this.core;
    return db.transaction(() => {
      const current = this.repo.byCode(card.code)!;
      const account = this.account(current);
      const credited = balanceTypeOf(current.brand);
      for (const topUp of this.repo.pendingTopUps(current.code)) this.failTopUp(account, current, topUp, 'card_terminated');
      const closing = current.balance_minor;
      const providerFee = Math.min(closing, PROVIDER_FEE_MINOR);
      const terminationFee = Math.min(closing - providerFee, TERMINATION_FEE_MINOR);
      const refunded = closing - providerFee - terminationFee;
      this.repo.setBalance(current.code, 0);
      this.repo.setStatus(current.code, 'cancelled');
      this.repo.deleteTermination(current.code);
      if (refunded > 0)
        ledger.credit(account, credited, refunded, {
          reason: 'card_termination',
          description: `Balance of terminated card ${current.code}`,
          customerCode: current.customer_code,
        });
      const closed = this.repo.byCode(current.code)!;
      const amounts = {
        refunded_amount: toAmount(refunded),
        card_balance_at_closure: toAmount(closing),
        provider_fee: toAmount(providerFee),
        termination_fee: toAmount(terminationFee),
      };
      outbox.emit(account, 'card.terminated', { ...cardEventIn(this.core, closed, 'cancelled'), ...amounts });
      return {
        card_code: current.code,
        status: 'completed',
        card_status: 'cancelled',
        ...amounts,
        credited_balance: credited,
        currency: 'USD',
      };
    });
  }

  /** The simulation's completion of a pending termination; 422 when none waits. */
  completePendingTermination(card: CardRow): CardRow {
    return this.core.db.transaction(() => {
      if (this.repo.pendingTermination(card.code) === undefined) {
        const hint = autoOutcomeHint(this.core, this.account(card));
        throw apiError('VALIDATION_ERROR', `No termination of this card waits on the card provider; the card is ${card.status}.${hint}`, {
          fields: [],
          current_status: card.status,
        });
      }
      this.completeTermination(card);
      return this.repo.byCode(card.code)!;
    });
  }

  private account(card: { account_id: number }): Account {
    return this.core.accounts.byId(card.account_id);
  }

  /** Schedules the happy outcome unless the account chooses outcomes itself. */
  scheduleAuto<P extends object>(account: Account, job: Job<P>, payload: NoInfer<P>): void {
    if (!account.manual) this.core.scheduler.schedule(job, this.core.clock.now() + this.core.autoCompleteMs, payload);
  }

  /** Issuance outcome of a pending card: `activated` (card.activated) or `failed` (refund, card.creation_failed). */
  issue(card: CardRow, choice: { outcome: 'activated' | 'failed'; reason?: string }): CardRow {
    const { db, clock, ledger, outbox } = this.core;
    return db.transaction(() => {
      const current = this.repo.byCode(card.code)!;
      if (current.status !== 'pending') {
        const hint = autoOutcomeHint(this.core, this.account(current));
        throw apiError('VALIDATION_ERROR', `Only a pending card can be issued or fail; this card is ${current.status}.${hint}`, {
          fields: [],
          reason: 'card_not_active',
          current_status: current.status,
        });
      }
      const account = this.account(current);
      if (choice.outcome === 'activated') {
        const pan = newPan(current.brand);
        const expiry = new Date(clock.now());
        const mm = String(expiry.getUTCMonth() + 1).padStart(2, '0');
        const yy = String((expiry.getUTCFullYear() + 3) % 100).padStart(2, '0');
        this.repo.issue(current.code, {
          pan,
          last_four: pan.slice(-4),
          expiry: `${mm}/${yy}`,
          cvv: String(randomInt(1000)).padStart(3, '0'),
          balance_minor: current.initial_load_minor,
        });
        const issued = this.repo.byCode(current.code)!;
        outbox.emit(account, 'card.activated', {
          ...cardEventIn(this.core, issued, 'active'),
          last_four: issued.last_four!,
          name_on_card: issued.name_on_card,
          expiry: issued.expiry!,
        });
        return issued;
      }
      const refund = current.initial_load_minor + current.card_fee_minor + current.service_fee_minor;
      this.repo.setStatus(current.code, 'failed');
      ledger.credit(account, balanceTypeOf(current.brand), refund, {
        reason: 'card_creation_refund',
        description: `Refund of failed card ${current.code}`,
        customerCode: current.customer_code,
      });
      const failed = this.repo.byCode(current.code)!;
      outbox.emit(account, 'card.creation_failed', {
        ...cardEventIn(this.core, failed, 'failed'),
        last_four: null,
        reason: choice.reason ?? 'issuer_declined',
        refunded_amount: toAmount(refund),
      });
      return failed;
    });
  }

  /** Outcome of a pending top-up: `completed` (card.topup.completed) or `failed` (refund, card.topup.failed). */
  completeTopUp(topUp: TopUpRow, choice: { outcome: 'completed' | 'failed'; reason?: string }): TopUpRow {
    const { db, outbox } = this.core;
    return db.transaction(() => {
      const current = this.repo.topUp(topUp.id)!;
      if (current.status !== 'pending') {
        const hint = autoOutcomeHint(this.core, this.account(this.repo.byCode(current.card_code)!));
        throw apiError('VALIDATION_ERROR', `The top-up is already ${current.status}.${hint}`, {
          fields: [],
          current_status: current.status,
        });
      }
      const card = this.repo.byCode(current.card_code)!;
      const account = this.account(card);
      const usable = card.status === 'active' || card.status === 'frozen';
      if (choice.outcome === 'completed' && usable) {
        this.repo.setBalance(card.code, card.balance_minor + current.amount_minor);
        this.repo.setTopUpStatus(current.id, 'completed');
        const after = this.repo.byCode(card.code)!;
        outbox.emit(account, 'card.topup.completed', {
          ...cardEventBase(this.core, after),
          amount: toAmount(current.amount_minor),
          fee: toAmount(current.fee_minor),
          topup_id: current.id,
        });
      } else {
        this.failTopUp(account, card, current, choice.reason ?? (usable ? 'provider_error' : `card_${card.status}`));
      }
      return this.repo.topUp(current.id)!;
    });
  }

  /** Refunds amount and fee of a pending top-up and sends card.topup.failed (inside a transaction). */
  failTopUp(account: Account, card: CardRow, topUp: TopUpRow, reason: string): void {
    const refund = topUp.amount_minor + topUp.fee_minor;
    this.repo.setTopUpStatus(topUp.id, 'failed');
    this.repo.insertTopUpFailure(topUp.id, reason);
    this.core.ledger.credit(account, balanceTypeOf(card.brand), refund, {
      reason: 'card_topup_refund',
      description: `Refund of top-up ${topUp.id}`,
      customerCode: card.customer_code,
    });
    const now = this.repo.byCode(card.code)!;
    this.core.outbox.emit(account, 'card.topup.failed', {
      ...cardEventBase(this.core, now),
      amount: toAmount(topUp.amount_minor),
      reason,
      refunded_amount: toAmount(refund),
      topup_id: topUp.id,
    });
  }

  find(account: Account, code: string): CardRow {
    const card = this.repo.find(account.id, code);
    if (!card) throw notFound('Card');
    return card;
  }
}

/** The card lifecycle of a sandbox (one per core): the partner API's handlers and the simulation API share it. */
export const cardLifecycle = perCore((core) => new CardLifecycle(core));

/** The card provider's armed answers as a snapshot part: those of the sandbox's one lifecycle, which arms and takes them. */
export const cardSnapshotPart = (core: SandboxCore): SnapshotPart => cardLifecycle(core).snapshotPart();
