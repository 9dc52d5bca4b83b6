// Gift cards (tag "Gift cards"): the product `gift_cards` of a subscription, with its ops balance.
import type { ProductModule } from '../core/sandbox.js';
import { giftCards } from './handlers.js';
import { DELIVERY_JOB } from './rules.js';
import { giftCardSimulation } from './simulation.js';
import { TABLES } from './tables.js';

export const product: ProductModule = {
  folder: 'gift-cards',
  tables: TABLES,
  handlers: giftCards,
  simulation: giftCardSimulation,
  jobs: [DELIVERY_JOB],
  subscription: { product: 'gift_cards', label: 'Gift cards', balances: ['gift_cards'] },
};
