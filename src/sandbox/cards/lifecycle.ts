// The asynchronous outcomes of cards: issuance (active or failed with a refund) and top-ups (applied, or
// failed with a refund). By default each completes by itself, happily, `autoCompleteMs` of the clock after
// the request; on a manual account it waits for the simulation API.
import { randomInt } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { ApiError, notFound } from '../core/errors.js';
import { toAmount } from '../core/money.js';
import { externalReferenceOf } from '../customers/handlers.js';
import { autoOutcomeHint } from '../simulation/auto-outcome-hint.js';
import { CardRepository, balanceTypeOf, newPan, type CardRow, type TopUpRow } from './repository.js';

export const ISSUE_JOB = 'card.issue';
export const TOPUP_JOB = 'card.topup';

/** The base fields of every card event. */
export function cardEventBase(core: SandboxCore, card: CardRow): Record<string, unknown> {
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

  constructor(core: SandboxCore) {
    this.core = core;
    this.repo = new CardRepository(core.db);
    core.scheduler.register(ISSUE_JOB, (p) => {
      const card = this.repo.byCode(String(p.card));
      if (card?.status === 'pending') this.issue(card, { outcome: 'activated' });
    });
    core.scheduler.register(TOPUP_JOB, (p) => {
      const topUp = this.repo.topUp(String(p.topup));
      if (topUp?.status === 'pending') this.completeTopUp(topUp, { outcome: 'completed' });
    });
  }

  private account(card: { account_id: number }): Account {
    return this.core.accounts.byId(card.account_id);
  }

  /** Schedules the happy outcome unless the account chooses outcomes itself. */
  scheduleAuto(account: Account, kind: string, payload: Record<string, unknown>): void {
    if (!account.manual) this.core.scheduler.schedule(kind, this.core.clock.now() + this.core.autoCompleteMs, payload);
  }

  /** Issuance outcome of a pending card: `activated` (card.activated) or `failed` (refund, card.creation_failed). */
  issue(card: CardRow, choice: { outcome: 'activated' | 'failed'; reason?: string }): CardRow {
    const { db, clock, ledger, outbox } = this.core;
    return db.transaction(() => {
      const current = this.repo.byCode(card.code)!;
      if (current.status !== 'pending') {
        const hint = autoOutcomeHint(this.core, this.account(current));
        throw new ApiError(422, 'VALIDATION_ERROR', `Only a pending card can be issued or fail; this card is ${current.status}.${hint}`, { fields: [], reason: 'card_not_active', current_status: current.status });
      }
      const account = this.account(current);
      if (choice.outcome === 'activated') {
        const pan = newPan(current.brand);
        const expiry = new Date(clock.now());
        const mm = String(expiry.getUTCMonth() + 1).padStart(2, '0');
        const yy = String((expiry.getUTCFullYear() + 3) % 100).padStart(2, '0');
        this.repo.issue(current.code, { pan, last_four: pan.slice(-4), expiry: `${mm}/${yy}`, cvv: String(randomInt(1000)).padStart(3, '0'), balance_minor: current.initial_load_minor });
        const issued = this.repo.byCode(current.code)!;
        outbox.emit(account, 'card.activated', { ...cardEventBase(this.core, issued), name_on_card: issued.name_on_card, expiry: issued.expiry });
        return issued;
      }
      const refund = current.initial_load_minor + current.card_fee_minor + current.service_fee_minor;
      this.repo.setStatus(current.code, 'failed');
      ledger.credit(account, balanceTypeOf(current.brand), refund, { reason: 'card_creation_refund', description: `Refund of failed card ${current.code}`, customerCode: current.customer_code });
      const failed = this.repo.byCode(current.code)!;
      outbox.emit(account, 'card.creation_failed', { ...cardEventBase(this.core, failed), reason: choice.reason ?? 'issuer_declined', refunded_amount: toAmount(refund) });
      return failed;
    });
  }

  /** Outcome of a pending top-up: `completed` (card.topup.completed) or `failed` (refund, card.topup.failed). */
  completeTopUp(topUp: TopUpRow, choice: { outcome: 'completed' | 'failed'; reason?: string }): TopUpRow {
    const { db, ledger, outbox } = this.core;
    return db.transaction(() => {
      const current = this.repo.topUp(topUp.id)!;
      if (current.status !== 'pending') {
        const hint = autoOutcomeHint(this.core, this.account(this.repo.byCode(current.card_code)!));
        throw new ApiError(422, 'VALIDATION_ERROR', `The top-up is already ${current.status}.${hint}`, { fields: [], current_status: current.status });
      }
      const card = this.repo.byCode(current.card_code)!;
      const account = this.account(card);
      const usable = card.status === 'active' || card.status === 'frozen';
      if (choice.outcome === 'completed' && usable) {
        this.repo.setBalance(card.code, card.balance_minor + current.amount_minor);
        this.repo.setTopUpStatus(current.id, 'completed');
        const after = this.repo.byCode(card.code)!;
        outbox.emit(account, 'card.topup.completed', { ...cardEventBase(this.core, after), amount: toAmount(current.amount_minor), fee: toAmount(current.fee_minor), topup_id: current.id });
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
    this.core.db.run('INSERT INTO card_topup_failures (topup_id, reason) VALUES (?, ?)', topUp.id, reason);
    this.core.ledger.credit(account, balanceTypeOf(card.brand), refund, { reason: 'card_topup_refund', description: `Refund of top-up ${topUp.id}`, customerCode: card.customer_code });
    const now = this.repo.byCode(card.code)!;
    this.core.outbox.emit(account, 'card.topup.failed', { ...cardEventBase(this.core, now), amount: toAmount(topUp.amount_minor), reason, refunded_amount: toAmount(refund), topup_id: topUp.id });
  }

  find(account: Account, code: string): CardRow {
    const card = this.repo.find(account.id, code);
    if (!card) throw notFound('Card');
    return card;
  }
}
