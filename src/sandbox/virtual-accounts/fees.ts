// The virtual account fee the sandbox bills. The interface document gives no amount: it is designed
// (provisional) and listed in docs/sandbox.md (tests/sandbox/docs-values.test.ts checks the table there).

/** Opening a virtual account, minor units: 5.00 USD from `others`. */
export const VIRTUAL_ACCOUNT_FEE_MINOR = 500;
