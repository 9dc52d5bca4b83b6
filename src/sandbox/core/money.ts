// Money is held in integer minor units (cents of USD) and shown at the edge as the contract's decimal number.

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
