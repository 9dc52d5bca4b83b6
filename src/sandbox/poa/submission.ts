// A proof-of-address document submitted: at most 10 MB once decoded, for an active customer at level
// `verified` with no document under review; its review follows (./rules.ts).
import type { Account } from '../core/accounts.js';
import type { Call, SandboxCore } from '../core/context.js';
import { stateError, validationError } from '../core/errors.js';
import { requireActiveCustomer } from '../customers/require.js';
import type { CustomerRow } from '../customers/repository.js';
import { insertDocument, latestDocument, type DocumentRow } from './repository.js';
import { POA_MAX_BYTES, scheduleAutoReview } from './rules.js';

/** Decoded size of standard base64 with padding. */
const decodedBytes = (b64: string): number => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

/** Keeps the customer's document, pending review; returns it with its customer. */
export function submitPoaDocument(
  core: SandboxCore,
  account: Account,
  customerCode: string,
  body: Call<'uploadPoaDocument'>['body'],
): { customer: CustomerRow; document: DocumentRow } {
  if (decodedBytes(body.content) > POA_MAX_BYTES) {
    throw validationError('The document is larger than 10 MB.', [
      { field: 'content', message: `must decode to at most ${POA_MAX_BYTES} bytes` },
    ]);
  }
  const customer = requireActiveCustomer(core, account.id, customerCode);
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
  return { customer, document: latestDocument(core, account.id, customer.code)! };
}
