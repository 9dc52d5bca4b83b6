// The review of a proof-of-address document: approved (level `full`, `poa.approved`, billed `poa_verification`)
// or rejected (`poa.rejected`, retry with a new document). It comes by itself unless the account chooses
// outcomes, then through the simulation API.
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import { autoOutcomeHint } from '../core/auto-outcome-hint.js';
import type { SandboxCore } from '../core/context.js';
import { apiError, notFound } from '../core/errors.js';
import { defineJob } from '../core/scheduler.js';
import { findCustomer, setVerificationLevel } from '../customers/repository.js';
import { VERIFICATION_BALANCE } from '../kyc/fees.js';
import { POA_FEE_MINOR } from './fees.js';
import { approveDocument, latestDocument, poaStatusOf, rejectDocument } from './repository.js';

/** The automatic review (an approval) of a document the account does not choose the outcome of. */
export const POA_AUTO_JOB = defineJob<{ account: number; customer: string }>(
  'poa.auto_outcome',
  (core, { account, customer }) => {
    if (latestDocument(core, account, customer)?.status === 'pending')
      reviewPoa(core, core.accounts.byId(account), customer, { outcome: 'approved' });
  },
  { automatic: true },
);

/** The contract's limit: a file of at most 10 MB. */
export const POA_MAX_BYTES = 10 * 1024 * 1024;

/** The review outcome of the customer's pending document, in one transaction with its events and billing. */
export function reviewPoa(
  core: SandboxCore,
  account: Account,
  customerCode: string,
  choice: { outcome: 'approved' | 'rejected'; reason?: string },
): components['schemas']['PoaStatus'] {
  const { db, clock, outbox, ledger } = core;
  return db.transaction(() => {
    const customer = findCustomer(core, account.id, customerCode);
    if (!customer) throw notFound('Customer');
    const doc = latestDocument(core, account.id, customer.code);
    if (doc?.status !== 'pending') {
      const hint = doc ? autoOutcomeHint(core, account) : '';
      throw apiError('VALIDATION_ERROR', `No proof-of-address document of this customer is pending review.${hint}`, {
        fields: [],
        current_status: doc?.status ?? 'none',
      });
    }
    const now = clock.now();
    const base = { customer_code: customer.code, external_reference: customer.external_reference };
    if (choice.outcome === 'approved') {
      approveDocument(core, doc.seq, now);
      setVerificationLevel(core, customer.code, 'full');
      ledger.debit(account, VERIFICATION_BALANCE, POA_FEE_MINOR, {
        reason: 'poa_verification',
        description: `Proof-of-address verification of customer ${customer.code}`,
        customerCode: customer.code,
        allowNegative: true,
      });
      outbox.emit(account, 'poa.approved', { ...base, poa_status: 'approved', verification_level: 'full', approved_at: clock.iso(now) });
    } else {
      const reason = choice.reason ?? 'document_not_accepted';
      rejectDocument(core, doc.seq, reason);
      outbox.emit(account, 'poa.rejected', { ...base, poa_status: 'rejected', verification_level: 'verified', reason });
    }
    return poaStatusOf(core, findCustomer(core, account.id, customer.code)!, latestDocument(core, account.id, customer.code)!);
  });
}

/** Schedules the automatic review of a document just submitted, unless the account chooses outcomes. */
export function scheduleAutoReview(core: SandboxCore, account: Account, customerCode: string): void {
  if (!account.manual)
    core.scheduler.schedule(POA_AUTO_JOB, core.clock.now() + core.autoCompleteMs, { account: account.id, customer: customerCode });
}
