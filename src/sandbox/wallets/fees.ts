// The wallet withdrawal fees the sandbox applies. The interface document gives no amounts: they are designed
// (provisional) and listed in docs/sandbox.md (tests/sandbox/docs-values.test.ts checks the table there).

/** A commission of 1 % of the amount. */
export const WITHDRAWAL_COMMISSION_PERCENT = 1;
/** A flat network fee of 1 unit of the currency, micro units. */
export const NETWORK_FEE_MICRO = 1_000_000;
