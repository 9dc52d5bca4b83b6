// The KYC fee the sandbox bills. The interface document names it but gives no amount: it is designed
// (provisional) and listed in docs/sandbox.md (tests/sandbox/docs-values.test.ts checks the table there).

/** What a KYC approval costs, minor units: 2.00 USD. */
export const KYC_FEE_MINOR = 200;
/** The ops balance that pays for verifications (KYC and proof of address). */
export const VERIFICATION_BALANCE = 'others' as const;
