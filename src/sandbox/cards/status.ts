// What a card's status allows (the refusals the operations share), and the partner's own status changes:
// freeze and unfreeze. The provider's outcomes (issuance, termination) are in ./lifecycle.ts.
import type { Account } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { stateError } from '../core/errors.js';
import { cardEventIn, cardLifecycle } from './lifecycle.js';
import type { CardRow } from './repository.js';

/** The refusal of an operation only an active card takes; `action` completes "can be ...". */
export const notActive = (card: CardRow, action: string) =>
  stateError('card_not_active', `Only an active card can be ${action}; this card is ${card.status}.`, card.status);

export function checkTerminable(card: CardRow): void {
  if (card.status !== 'active' && card.status !== 'frozen')
    throw stateError('card_not_usable', `Only an active or frozen card can be terminated; this card is ${card.status}.`, card.status);
}

export function checkSensitiveDataShown(card: CardRow): void {
  if (card.status !== 'active' && card.status !== 'frozen')
    throw stateError(
      'card_not_usable',
      `Sensitive data exists only for an active or frozen card; this card is ${card.status}.`,
      card.status,
    );
}

/** An active card frozen: `card.frozen`. */
export function freezeCard(core: SandboxCore, account: Account, card: CardRow): CardRow {
  const { repo } = cardLifecycle(core);
  if (card.status !== 'active') throw notActive(card, 'frozen');
  repo.setStatus(card.code, 'frozen');
  const frozen = repo.byCode(card.code)!;
  core.outbox.emit(account, 'card.frozen', cardEventIn(core, frozen, 'frozen'));
  return frozen;
}

/** A frozen card active again: `card.unfrozen`. */
export function unfreezeCard(core: SandboxCore, account: Account, card: CardRow): CardRow {
  const { repo } = cardLifecycle(core);
  if (card.status !== 'frozen')
    throw stateError('card_not_frozen', `Only a frozen card can be unfrozen; this card is ${card.status}.`, card.status);
  repo.setStatus(card.code, 'active');
  const active = repo.byCode(card.code)!;
  core.outbox.emit(account, 'card.unfrozen', cardEventIn(core, active, 'active'));
  return active;
}
