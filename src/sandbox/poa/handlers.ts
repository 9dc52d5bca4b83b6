// Proof of address (tag "Proof of address"): submit a document (level `verified` needed, at most 10 MB), read
// the status. The review outcome (approved: level `full`, `poa.approved`, billed `poa_verification`; rejected:
// `poa.rejected`, retry with a new document) comes by itself unless the account chooses outcomes, then through
// the simulation API (`reviewPoa`).
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { apiError, notFound, stateError, validationError } from '../core/errors.js';
import { findCustomer, type CustomerRow } from '../customers/handlers.js';
import { requireActiveCustomer } from '../customers/require.js';
import { VERIFICATION_BALANCE } from '../kyc/verification.js';
import { autoOutcomeHint } from '../core/auto-outcome-hint.js';

export const POA_AUTO_JOB = 'poa.auto_outcome';
/** The contract's limit: a file of at most 10 MB. */
export const POA_MAX_BYTES = 10 * 1024 * 1024;
/** Designed (provisional): what a POA approval costs, from the `others` ops balance. */
export const POA_FEE_MINOR = 100;

interface DocumentRow {
  seq: number;
  account_id: number;
  customer_code: string;
  document_name: string;
  status: 'pending' | 'approved' | 'rejected';
  rejection_reason: string | null;
  approved_at: number | null;
}

function latest(core: SandboxCore, accountId: number, customerCode: string): DocumentRow | undefined {
  return core.db.get<DocumentRow>('SELECT * FROM poa_documents WHERE account_id = ? AND customer_code = ? ORDER BY seq DESC LIMIT 1', accountId, customerCode);
}

function poaStatusOf(core: SandboxCore, customer: CustomerRow, doc: DocumentRow): components['schemas']['PoaStatus'] {
  return {
    customer_code: customer.code,
    poa_status: doc.status,
    verification_level: customer.verification_level,
    document_name: doc.document_name,
    rejection_reason: doc.rejection_reason,
    approved_at: doc.approved_at !== null ? core.clock.iso(doc.approved_at) : null,
  };
}

/** Decoded size of standard base64 with padding. */
const decodedBytes = (b64: string): number => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

/** The review outcome of the customer's pending document, in one transaction with its events and billing. */
export function reviewPoa(core: SandboxCore, account: Account, customerCode: string, choice: { outcome: 'approved' | 'rejected'; reason?: string }): components['schemas']['PoaStatus'] {
  const { db, clock, outbox, ledger } = core;
  return db.transaction(() => {
    const customer = findCustomer(core, account.id, customerCode);
    if (!customer) throw notFound('Customer');
    const doc = latest(core, account.id, customer.code);
    if (doc?.status !== 'pending') {
      const hint = doc ? autoOutcomeHint(core, account) : '';
      throw apiError('VALIDATION_ERROR', `No proof-of-address document of this customer is pending review.${hint}`, { fields: [], current_status: doc?.status ?? 'none' });
    }
    const now = clock.now();
    const base = { customer_code: customer.code, external_reference: customer.external_reference };
    if (choice.outcome === 'approved') {
      db.run("UPDATE poa_documents SET status = 'approved', approved_at = ? WHERE seq = ?", now, doc.seq);
      db.run("UPDATE customers SET verification_level = 'full' WHERE code = ?", customer.code);
      ledger.debit(account, VERIFICATION_BALANCE, POA_FEE_MINOR, { reason: 'poa_verification', description: `Proof-of-address verification of customer ${customer.code}`, customerCode: customer.code, allowNegative: true });
      outbox.emit(account, 'poa.approved', { ...base, poa_status: 'approved', verification_level: 'full', approved_at: clock.iso(now) });
    } else {
      const reason = choice.reason ?? 'document_not_accepted';
      db.run("UPDATE poa_documents SET status = 'rejected', rejection_reason = ? WHERE seq = ?", reason, doc.seq);
      outbox.emit(account, 'poa.rejected', { ...base, poa_status: 'rejected', verification_level: 'verified', reason });
    }
    return poaStatusOf(core, findCustomer(core, account.id, customer.code)!, latest(core, account.id, customer.code)!);
  });
}

export function poa(core: SandboxCore): Handlers {
  const { db, clock, scheduler } = core;
  scheduler.register(POA_AUTO_JOB, (p) => {
    const account = core.accounts.byId(Number(p.account));
    if (latest(core, account.id, String(p.customer))?.status === 'pending') reviewPoa(core, account, String(p.customer), { outcome: 'approved' });
  });
  return {
    uploadPoaDocument({ account, params, body }) {
      if (decodedBytes(body.content) > POA_MAX_BYTES) {
        throw validationError('The document is larger than 10 MB.', [{ field: 'content', message: `must decode to at most ${POA_MAX_BYTES} bytes` }]);
      }
      return db.transaction(() => {
        const customer = requireActiveCustomer(core, account.id, params.customerCode);
        if (customer.verification_level === 'basic') {
          throw stateError('verification_level_too_low', 'The customer must have the verified verification level (current: basic): complete KYC first.', undefined, {
            current_verification_level: 'basic',
            required_verification_level: 'verified',
          });
        }
        const previous = latest(core, account.id, customer.code);
        if (previous?.status === 'pending') throw stateError('poa_under_review', 'A proof-of-address document of this customer is already under review.', 'pending');
        if (customer.verification_level === 'full') {
          throw stateError('poa_already_approved', 'The proof of address of this customer is already approved (level full).', 'approved', { current_verification_level: 'full' });
        }
        db.run(
          `INSERT INTO poa_documents (account_id, customer_code, document_name, content_type, size_bytes, status, rejection_reason, approved_at, created_at)
           VALUES (?, ?, ?, ?, ?, 'pending', NULL, NULL, ?)`,
          account.id, customer.code, body.document_name, body.content_type, decodedBytes(body.content), clock.now(),
        );
        if (!account.manual) scheduler.schedule(POA_AUTO_JOB, clock.now() + core.autoCompleteMs, { account: account.id, customer: customer.code });
        return { data: poaStatusOf(core, customer, latest(core, account.id, customer.code)!) };
      });
    },
    getPoaStatus({ account, params }) {
      const customer = findCustomer(core, account.id, params.customerCode);
      if (!customer) throw notFound('Customer');
      const doc = latest(core, account.id, customer.code);
      if (!doc) throw notFound('Proof-of-address document');
      return { data: poaStatusOf(core, customer, doc) };
    },
  };
}
