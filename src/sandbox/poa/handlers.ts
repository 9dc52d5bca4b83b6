// Proof of address (tag "Proof of address"): submit a document (level `verified` needed, at most 10 MB), read
// the status. The submission is in ./submission.ts, the review in ./rules.ts, the documents in ./repository.ts.
import type { Handlers, SandboxCore } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { findCustomer } from '../customers/repository.js';
import { latestDocument, poaStatusOf } from './repository.js';
import { submitPoaDocument } from './submission.js';

export function poa(core: SandboxCore): Handlers {
  return {
    uploadPoaDocument({ account, params, body }) {
      const { customer, document } = submitPoaDocument(core, account, params.customerCode, body);
      return { data: poaStatusOf(core, customer, document) };
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
