// Webhook endpoints (tag "Webhook endpoints"): their tables and deliveries are the core's (core/store.ts).
import type { ProductModule } from '../core/sandbox.js';
import { webhookEndpoints } from './handlers.js';

export const product: ProductModule = {
  folder: 'webhook-endpoints',
  handlers: webhookEndpoints,
};
