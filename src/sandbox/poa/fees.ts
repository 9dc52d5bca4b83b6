// The proof-of-address fee the sandbox bills. The interface document names it but gives no amount: it is designed
// (provisional) and listed in docs/sandbox.md (tests/sandbox/docs-values.test.ts checks the table there).

/** What a proof-of-address approval costs, minor units (from the verifications' ops balance, kyc/fees.ts). */
export const POA_FEE_MINOR = 100;
