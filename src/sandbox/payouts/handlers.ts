// Payouts (tag "Payouts"): beneficiaries (SEPA or ACH, soft deleted), quotes, and payouts confirmed from a
// quote. A new beneficiary is made in ./beneficiaries.ts, a quote and the state changes of a payout in
// ./rules.ts, the rows and shapes in ./repository.ts, the fees, rates and validity in ./fees.ts.
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow } from '../core/context.js';
import { requestAmountMinor } from '../core/money.js';
import { checkCustomerFilter } from '../customers/require.js';
import { createBeneficiary } from './beneficiaries.js';
import { beneficiaryOf, beneficiaryPage, deleteBeneficiary, payoutPage } from './repository.js';
import { payoutBook } from './rules.js';

function beneficiaryHandlers(core: SandboxCore): Handlers {
  const { clock } = core;
  const book = payoutBook(core);
  return {
    createBeneficiary({ account, body }) {
      const code = createBeneficiary(core, account, body);
      return { data: beneficiaryOf(clock, book.beneficiary(account, code)) };
    },

    listBeneficiaries({ account, query }) {
      checkCustomerFilter(core, account.id, query.customer_code);
      const [limit, offset] = pageWindow(query);
      const { rows, total } = beneficiaryPage(core, account.id, query, limit, offset);
      return page(
        rows.map((r) => beneficiaryOf(clock, r)),
        total,
        query,
      );
    },

    getBeneficiary({ account, params }) {
      return { data: beneficiaryOf(clock, book.beneficiary(account, params.code)) };
    },

    deleteBeneficiary({ account, params }) {
      const row = book.beneficiary(account, params.code);
      deleteBeneficiary(core, row.code);
      return { data: { code: row.code, deleted: true } };
    },
  };
}

function payoutHandlers(core: SandboxCore): Handlers {
  const book = payoutBook(core);
  return {
    createPayoutQuote({ account, body }) {
      const amount = requestAmountMinor('amount_usd', body.amount_usd);
      return { data: book.quoteView(book.quote(account, body.beneficiary_code, amount, body.reference)) };
    },

    createPayout({ account, body }) {
      return { data: book.view(book.confirm(account, body.quote_code)) };
    },

    listPayouts({ account, query }) {
      checkCustomerFilter(core, account.id, query.customer_code);
      const [from, to] = createdRange(query);
      const [limit, offset] = pageWindow(query);
      const { rows, total } = payoutPage(
        core,
        account.id,
        { customer_code: query.customer_code, status: query.status, from, to },
        limit,
        offset,
      );
      return page(
        rows.map((r) => book.view(r)),
        total,
        query,
      );
    },

    getPayout({ account, params }) {
      return { data: book.view(book.find(account, params.code)) };
    },
  };
}

export function payouts(core: SandboxCore): Handlers {
  return { ...beneficiaryHandlers(core), ...payoutHandlers(core) };
}
