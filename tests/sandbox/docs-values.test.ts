// docs/sandbox.md states the fees and limits the sandbox applies: each statement here is rendered from the one
// place the value is defined (the contract's limits table for the limits, the sandbox's fee constants for its
// designed fees, src/sandbox/core/bounds.ts for the bounds of "Limits and safety") and must be found, as it is, in
// the guide. A value changed in one place and not in the guide fails here. The contract's card fees are not
// repeated there: the guide links to their table, which npm run build writes (tests/contract/plans.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT, OPENING_BALANCE_MINOR } from '../../src/sandbox/core/accounts.ts';
import {
  ACCOUNTS_IN_MEMORY,
  ANSWER_LIMIT_BYTES,
  BODY_LIMIT_BYTES,
  BODY_MAX_DEPTH,
  DB_FILE_MODE,
  HEADER_LIMIT_BYTES,
  HEADERS_TIMEOUT_MS,
  LONG_FIELD_BODY_MARGIN_BYTES,
  PARAM_MAX_LENGTH,
  RATE_LIMITED_KEYS_IN_MEMORY,
  REQUEST_TIMEOUT_MS,
  SNAPSHOT_ACCOUNTS_IN_MEMORY,
  SNAPSHOTS_PER_ACCOUNT,
  TOO_LARGE_READ_BYTES,
  TOO_LARGE_READ_MS,
} from '../../src/sandbox/core/bounds.ts';
import { errorMessageMaxLength } from '../../src/sandbox/core/errors.ts';
import { contractLimits } from '../../src/sandbox/core/limits.ts';
import { formatAmount } from '../../src/sandbox/core/money.ts';
import { KYC_FEE_MINOR } from '../../src/sandbox/kyc/fees.ts';
import { POA_FEE_MINOR } from '../../src/sandbox/poa/fees.ts';
import { PAYOUT_FEE, QUOTE_VALIDITY_MS, USD_EUR_RATE } from '../../src/sandbox/payouts/fees.ts';
import { VIRTUAL_ACCOUNT_FEE_MINOR } from '../../src/sandbox/virtual-accounts/fees.ts';
import { NETWORK_FEE_MICRO, WITHDRAWAL_COMMISSION_PERCENT } from '../../src/sandbox/wallets/fees.ts';

const GUIDE = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/sandbox.md'), 'utf8').replace(/\s+/g, ' ');
/** 500 -> `5.00`, 1_000_000 -> `10,000.00`. */
const usd = (minor: number) => (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Basis points as a percentage: 200 -> `2`, 50 -> `0.5`. */
const percent = (basisPoints: number) => String(basisPoints / 100);
const limits = contractLimits();
/** 1048576 -> `1,048,576`. */
const count = (n: number) => n.toLocaleString('en-US');
const seconds = (ms: number) => `${ms / 1000} seconds`;
/** 1048576 -> `1 MiB`. */
const mebibytes = (bytes: number) => `${bytes / 1_048_576} MiB`;

const STATEMENTS: [what: string, text: string][] = [
  [
    'opening balances',
    `| Opening ops balances | ${usd(OPENING_BALANCE_MINOR)} each; low balance threshold ${usd(DEFAULT_ACCOUNT.lowThresholdMinor)} |`,
  ],
  [
    'opening balances (keys)',
    `each funded with **${usd(OPENING_BALANCE_MINOR)} USD**, with a low balance threshold of ${formatAmount(limits.lowBalanceThresholdMinor)} USD`,
  ],
  [
    'payout fee',
    `| Fee | ${percent(PAYOUT_FEE.basisPoints)} % of \`amount_usd\`, at least ${usd(PAYOUT_FEE.minimumMinor.sepa)} (SEPA) or ${usd(PAYOUT_FEE.minimumMinor.ach)} (ACH), rounded to the cent |`,
  ],
  ['exchange rate', `| Exchange rate | ${USD_EUR_RATE} EUR per USD, fixed;`],
  ['quote validity', `| Quote validity | ${QUOTE_VALIDITY_MS / 60_000} minutes of the clock`],
  ['KYC fee', `reason \`kyc_verification\`, ${usd(KYC_FEE_MINOR)} USD from \`others\``],
  ['POA fee', `\`poa_verification\`, ${usd(POA_FEE_MINOR)} USD from \`others\``],
  ['virtual account fee', `costs **${usd(VIRTUAL_ACCOUNT_FEE_MINOR)} USD from \`others\`**`],
  [
    'wallet withdrawal fees',
    `a ${WITHDRAWAL_COMMISSION_PERCENT} % commission and a network fee of ${NETWORK_FEE_MICRO / 1_000_000} unit of the currency`,
  ],
  // The limits the contract states, as the guide repeats them.
  [
    'rate limit',
    `More than ${limits.requestsPerMinute.decouverte} (Découverte) or ${limits.requestsPerMinute.others} (other plans) requests in a minute`,
  ],
  [
    'active endpoints',
    `Active endpoints: ${limits.activeWebhookEndpoints.decouverte} on Découverte, ${limits.activeWebhookEndpoints.others} on other plans`,
  ],
  [
    'loaded on cards',
    `The ${formatAmount(limits.loadedOnCardsPerMonthMinor.decouverte!)} USD Découverte limit counts initial loads and top-ups`,
  ],
  [
    'payouts per month',
    `| Découverte | ${formatAmount(limits.payoutsPerMonthMinor.decouverte!)} USD of \`amount_usd\` confirmed per calendar month`,
  ],
  // Limits and safety (src/sandbox/core/bounds.ts).
  [
    'snapshots kept',
    `[Snapshots](#snapshots): ${SNAPSHOTS_PER_ACCOUNT} per account (and ${SNAPSHOTS_PER_ACCOUNT} of the whole sandbox), the least recently used forgotten beyond, for the ${SNAPSHOT_ACCOUNTS_IN_MEMORY} most recently used accounts`,
  ],
  [
    'snapshots kept (section)',
    `An account keeps its ${SNAPSHOTS_PER_ACCOUNT} most recently taken or restored snapshots (taking one more forgets the least recently used); the sandbox keeps the snapshots of its ${SNAPSHOT_ACCOUNTS_IN_MEMORY} most recently used accounts.`,
  ],
  [
    'body size',
    `| The request body | ${count(BODY_LIMIT_BYTES)} bytes (${mebibytes(BODY_LIMIT_BYTES)}); an operation with a longer string field (a proof-of-address file) allows that field's \`maxLength\` plus ${count(LONG_FIELD_BODY_MARGIN_BYTES)} bytes |`,
  ],
  ['body size (answers)', `| Body larger than ${mebibytes(BODY_LIMIT_BYTES)} (or than an operation's own limit, below) | 413`],
  ['nesting depth', `| Nesting of a JSON body | ${BODY_MAX_DEPTH} levels of arrays and objects |`],
  ['nesting depth (answers)', `| Body nested more than ${BODY_MAX_DEPTH} levels deep | 413 \`VALIDATION_ERROR\`, field \`body\` |`],
  ['header size', `| The request line (method, path and query) and the headers together | ${count(HEADER_LIMIT_BYTES)} bytes | 431`],
  ['header size (answers)', `| Request line and headers larger than ${count(HEADER_LIMIT_BYTES)} bytes (a long query) | 431`],
  [
    'path and query parameters',
    PARAM_MAX_LENGTH >= HEADER_LIMIT_BYTES
      ? "| A path or query parameter | no bound of its own below the request line's: the contract's (`maxLength`, `format`) |"
      : `| A path parameter | ${count(PARAM_MAX_LENGTH)} characters |`,
  ],
  ['headers time', `| Time to receive the headers | ${seconds(HEADERS_TIMEOUT_MS)} | 408`],
  ['request time', `| Time to receive the whole request | ${seconds(REQUEST_TIMEOUT_MS)} | 408`],
  [
    'refused body read',
    `| A refused body, read to its end before the 413 | ${count(TOO_LARGE_READ_BYTES)} bytes (${mebibytes(TOO_LARGE_READ_BYTES)}), within ${seconds(TOO_LARGE_READ_MS)} |`,
  ],
  [
    'refused body read (answers)',
    `It does so up to **${mebibytes(TOO_LARGE_READ_BYTES)}** of body, for at most ${seconds(TOO_LARGE_READ_MS)}.`,
  ],
  [
    'file permissions',
    `the file and its \`-wal\` and \`-shm\` files are readable and writable by their owner only (mode \`0${DB_FILE_MODE.toString(8)}\`)`,
  ],
  ['accounts in memory', `the accounts (and their product lists) of the ${count(ACCOUNTS_IN_MEMORY)} most recently used keys`],
  [
    'rate-limit counts in memory',
    `the rate-limit counts of the current minute of the ${count(RATE_LIMITED_KEYS_IN_MEMORY)} most recently used keys`,
  ],
  ['message length', `is cut to the contract's ${count(errorMessageMaxLength())} characters`],
  ["a receiver's answer", `**A receiver's answer is read up to ${ANSWER_LIMIT_BYTES / 1024} KiB**`],
];

describe('docs/sandbox.md states the fees and limits the sandbox applies', () => {
  for (const [what, text] of STATEMENTS) {
    it(what, () => {
      expect(GUIDE.includes(text), `docs/sandbox.md should say: ${text}`).toBe(true);
    });
  }
});
