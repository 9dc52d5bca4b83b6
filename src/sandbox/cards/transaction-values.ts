// The values a card transaction's type decides (direction, status, a withdrawal's merchant fields), read from the
// contract: `x-type-values` of the CardTransaction schema (provisional, docs/extensions.md), `default` then the
// type's own. The handlers and the simulation fill a transaction's other fields.
import type { components } from '../../../generated/openapi.js';
import { sandboxModel } from '../core/contract.js';

type CardTransaction = components['schemas']['CardTransaction'];
type TypeValues = Partial<Pick<CardTransaction, 'direction' | 'status' | 'merchant_name' | 'merchant_city' | 'merchant_country'>>;

let table: Record<string, TypeValues> | undefined;

/** The values the contract gives a transaction of this type. */
export function transactionValues(type: string): TypeValues & { direction: 'debit' | 'credit'; status: string } {
  table ??= sandboxModel().schema('CardTransaction')?.node['x-type-values'] as Record<string, TypeValues>;
  const values = { ...table['default'], ...table[type] };
  if (values.direction !== 'debit' && values.direction !== 'credit')
    throw new Error(`the contract's CardTransaction x-type-values gives ${type} no direction`);
  if (typeof values.status !== 'string') throw new Error(`the contract's CardTransaction x-type-values gives ${type} no status`);
  return values as TypeValues & { direction: 'debit' | 'credit'; status: string };
}
