// Events (tag "Events"): the core's outbox (core/outbox.ts) as the partner reads it; open to every subscription.
import type { ProductModule } from '../core/sandbox.js';
import { events } from './handlers.js';

export const product: ProductModule = {
  folder: 'events',
  handlers: events,
};
