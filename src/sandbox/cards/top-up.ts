// A top-up: money loaded on an active card within the plan's monthly limit, the amount and its fee debited from
// the brand's ops balance; pending until the provider completes it (./lifecycle.ts).
import { randomUUID } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { addUsage, periodOf } from '../core/usage.js';
import { requireActiveCustomer } from '../customers/require.js';
import { topUpFeeMinor } from './fees.js';
import { TOPUP_JOB, cardLifecycle } from './lifecycle.js';
import { checkLoadedLimit } from './plan-limits.js';
import { balanceTypeOf, type CardRow, type TopUpRow } from './repository.js';
import { notActive } from './status.js';

/** Loads `amountMinor` on the card; returns the top-up, pending. */
export function topUpCard(core: SandboxCore, account: Account, card: CardRow, amountMinor: number): TopUpRow {
  const { clock, ledger } = core;
  const lifecycle = cardLifecycle(core);
  if (card.status !== 'active') throw notActive(card, 'topped up');
  requireActiveCustomer(core, account.id, card.customer_code);
  checkLoadedLimit(core, account, amountMinor);
  const fee = topUpFeeMinor(amountMinor);
  ledger.debit(account, balanceTypeOf(card.brand), amountMinor + fee, {
    reason: 'card_topup',
    description: `Top-up of card ${card.code}`,
    customerCode: card.customer_code,
    eventFields: { brand: card.brand },
  });
  const topUp: TopUpRow = {
    id: randomUUID(),
    account_id: account.id,
    card_code: card.code,
    amount_minor: amountMinor,
    fee_minor: fee,
    status: 'pending',
    created_at: clock.now(),
  };
  lifecycle.repo.insertTopUp(topUp);
  addUsage(core.db, account.id, periodOf(clock.now()), 'usd_loaded_minor', amountMinor);
  lifecycle.scheduleAuto(account, TOPUP_JOB, { topup: topUp.id });
  return topUp;
}
