// Customers (tag "Customers"): open to every subscription.
import type { ProductModule } from '../core/sandbox.js';
import { customers } from './handlers.js';
import { TABLES } from './tables.js';

export const product: ProductModule = {
  folder: 'customers',
  tables: TABLES,
  handlers: customers,
};
