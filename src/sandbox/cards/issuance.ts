// A new card: the plan's limits, the initial load and the fees debited from the brand's ops balance, the card
// pending until the provider issues it (./lifecycle.ts, by itself unless the account is manual).
import { randomUUID } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import type { Call, SandboxCore } from '../core/context.js';
import { planUpgradeRequired } from '../core/errors.js';
import { issuesCategory, planName } from '../core/limits.js';
import { addUsage, periodOf } from '../core/usage.js';
import { requireActiveCustomer } from '../customers/require.js';
import { CARD_FEE_MINOR, PRODUCT_CODES, SERVICE_FEE_MINOR } from './fees.js';
import { ISSUE_JOB, cardLifecycle } from './lifecycle.js';
import { defaultNameOnCard } from './name-on-card.js';
import { checkCreatedLimit, checkLoadedLimit } from './plan-limits.js';
import { balanceTypeOf, type CardRow } from './repository.js';

/** Orders a card loaded with `amountMinor` for an active customer of the account; returns it, pending. */
export function issueCard(core: SandboxCore, account: Account, body: Call<'createCard'>['body'], amountMinor: number): CardRow {
  const { clock, ledger, db } = core;
  const lifecycle = cardLifecycle(core);
  const customer = requireActiveCustomer(core, account.id, body.customer_code);
  if (!issuesCategory(account.plan, body.category))
    throw planUpgradeRequired(`The plan ${planName(account.plan)} does not give ${body.category} cards.`);
  const period = periodOf(clock.now());
  checkCreatedLimit(core, account, period);
  checkLoadedLimit(core, account, amountMinor);
  const card: CardRow = {
    code: randomUUID(),
    account_id: account.id,
    customer_code: customer.code,
    product_code: PRODUCT_CODES[body.brand][body.category],
    brand: body.brand,
    category: body.category,
    name_on_card: body.name_on_card ?? defaultNameOnCard(customer.first_name, customer.last_name),
    status: 'pending',
    balance_minor: 0,
    initial_load_minor: amountMinor,
    card_fee_minor: CARD_FEE_MINOR[body.category],
    service_fee_minor: SERVICE_FEE_MINOR,
    last_four: null,
    expiry: null,
    pan: null,
    cvv: null,
    created_at: clock.now(),
  };
  const total = amountMinor + card.card_fee_minor + card.service_fee_minor;
  ledger.debit(account, balanceTypeOf(card.brand), total, {
    reason: 'card_issuance',
    description: `Card ${card.code}: initial load and fees`,
    customerCode: customer.code,
    eventFields: { brand: card.brand, product: card.category },
  });
  lifecycle.repo.insert(card);
  addUsage(db, account.id, period, 'cards_created', 1);
  addUsage(db, account.id, period, 'usd_loaded_minor', amountMinor);
  lifecycle.scheduleAuto(account, ISSUE_JOB, { card: card.code });
  return card;
}
