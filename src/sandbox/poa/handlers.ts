// Proof of address (tag "Proof of address"): submit a document (level `verified` needed, at most 10 MB), read
// the status. The review is in ./rules.ts, the documents in ./repository.ts.
import type { Handlers, SandboxCore } from '../core/context.js';
import { notFound, stateError, validationError } from '../core/errors.js';
import { findCustomer } from '../customers/repository.js';
import { requireActiveCustomer } from '../customers/require.js';
import { insertDocument, latestDocument, poaStatusOf } from './repository.js';
import { POA_MAX_BYTES, registerPoaReview, scheduleAutoReview } from './rules.js';

/** Decoded size of standard base64 with padding. */
const decodedBytes = (b64: string): number => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

export function poa(core: SandboxCore): Handlers {
  registerPoaReview(core);
  return {
    uploadPoaDocument({ account, params, body }) {
      if (decodedBytes(body.content) > POA_MAX_BYTES) {
        throw validationError('The document is larger than 10 MB.', [
          { field: 'content', message: `must decode to at most ${POA_MAX_BYTES} bytes` },
        ]);
      }
      const customer = requireActiveCustomer(core, account.id, params.customerCode);
      if (customer.verification_level === 'basic') {
        throw stateError(
          'verification_level_too_low',
          'The customer must have the verified verification level (current: basic): complete KYC first.',
          undefined,
          {
            current_verification_level: 'basic',
            required_verification_level: 'verified',
          },
        );
      }
      const previous = latestDocument(core, account.id, customer.code);
      if (previous?.status === 'pending')
        throw stateError('poa_under_review', 'A proof-of-address document of this customer is already under review.', 'pending');
      if (customer.verification_level === 'full') {
        throw stateError('poa_already_approved', 'The proof of address of this customer is already approved (level full).', 'approved', {
          current_verification_level: 'full',
        });
      }
      insertDocument(core, account.id, customer.code, {
        name: body.document_name,
        contentType: body.content_type,
        sizeBytes: decodedBytes(body.content),
      });
      scheduleAutoReview(core, account, customer.code);
      return { data: poaStatusOf(core, customer, latestDocument(core, account.id, customer.code)!) };
    },
    getPoaStatus({ account, params }) {
      const customer = findCustomer(core, account.id, params.customerCode);
      if (!customer) throw notFound('Customer');
      const doc = latestDocument(core, account.id, customer.code);
      if (!doc) throw notFound('Proof-of-address document');
      return { data: poaStatusOf(core, customer, doc) };
    },
  };
}
