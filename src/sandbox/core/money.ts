// Money is held in integer minor units (cents of USD) and shown at the edge as the contract's decimal number.
import { hasDecimalPlaces } from '../../contract/decimal-places.js';
import { apiError } from './errors.js';

/** 12.34 -> 1234. The request validators already refused more than two decimal places. */
export function toMinor(amount: number): number {
  const minor = Math.round(amount * 100);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount out of range: ${amount}`);
  return minor;
}

/** 1234 -> 12.34 */
export function toAmount(minor: number): number {
  return minor / 100;
}

/** An amount for a message or a document: 500000 -> `5,000`, 3750 -> `37.5`. */
export function formatAmount(minor: number): string {
  return toAmount(minor).toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/**
 * A request amount in minor units. More than 2 decimal places is refused with 422 (Contract 1.1 gives money
 * `x-decimal-places: 2`; this holds even where the document in use does not declare it yet).
 */
export function requestAmountMinor(field: string, amount: number): number {
  if (!hasDecimalPlaces(amount, 2) || !Number.isSafeInteger(Math.round(amount * 100))) {
    throw apiError('VALIDATION_ERROR', `${field} must be an amount with at most 2 decimal places.`, {
      fields: [{ field, message: 'has too many decimal places (x-decimal-places)' }],
    });
  }
  return toMinor(amount);
}
