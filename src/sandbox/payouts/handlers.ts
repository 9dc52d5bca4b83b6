// Payouts (tag "Payouts"): beneficiaries (SEPA or ACH, soft deleted), quotes, and payouts confirmed from a
// quote. The state changes of a payout are in ./rules.ts, the rows and shapes in ./repository.ts, the fees,
// rates and validity in ./fees.ts.
import { randomUUID } from 'node:crypto';
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow } from '../core/context.js';
import { validationError } from '../core/errors.js';
import { requestAmountMinor } from '../core/money.js';
import { checkCustomerFilter, requireActiveCustomer } from '../customers/require.js';
import { BALANCE_OF_RAIL, QUOTE_VALIDITY_MS, SEPA_COUNTRIES, payoutFeeMinor, toEurMinor } from './fees.js';
import {
  beneficiaryOf,
  beneficiaryPage,
  deleteBeneficiary,
  insertBeneficiary,
  insertQuote,
  mask,
  payoutPage,
  type Beneficiary,
  type PayoutRow,
} from './repository.js';
import { payoutBook } from './rules.js';

export function payouts(core: SandboxCore): Handlers {
  const { clock } = core;
  const book = payoutBook(core);
  return {
    createBeneficiary({ account, body }) {
      const customer = requireActiveCustomer(core, account.id, body.customer_code);
      const address = { state_province: '', ...body.address };
      let view: Omit<Beneficiary, 'code' | 'customer_code' | 'rail' | 'created_at'>;
      if (body.rail === 'sepa') {
        const country = body.iban.slice(0, 2);
        if (!body.bic_swift && !SEPA_COUNTRIES.has(country)) {
          throw validationError('The bank of this IBAN cannot be found: send its BIC in bic_swift.', [
            { field: 'bic_swift', message: 'is required for this IBAN' },
          ]);
        }
        view = {
          type: body.type,
          name: body.name,
          bank_name: body.bank_name,
          iban_masked: mask(body.iban, 4),
          bic_swift: body.bic_swift ?? `SNDB${country}PP`,
          account_number_masked: null,
          routing_number: null,
          account_type: null,
          address,
        };
      } else {
        view = {
          type: body.type,
          name: body.name,
          bank_name: body.bank_name,
          iban_masked: null,
          bic_swift: null,
          account_number_masked: mask(body.account_number, 0),
          routing_number: body.routing_number,
          account_type: body.account_type ?? 'checking',
          address,
        };
      }
      const code = randomUUID();
      insertBeneficiary(core, { code, account_id: account.id, customer_code: customer.code, rail: body.rail }, view);
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

    createPayoutQuote({ account, body }) {
      const amount = requestAmountMinor('amount_usd', body.amount_usd);
      const b = book.beneficiary(account, body.beneficiary_code);
      requireActiveCustomer(core, account.id, b.customer_code);
      const now = clock.now();
      const row: PayoutRow = {
        code: randomUUID(),
        account_id: account.id,
        customer_code: b.customer_code,
        beneficiary_code: b.code,
        reference: body.reference,
        rail: b.rail,
        status: 'quote',
        amount_minor: amount,
        fee_minor: payoutFeeMinor(b.rail, amount),
        received_minor: b.rail === 'sepa' ? toEurMinor(amount) : amount,
        amount_eur_minor: toEurMinor(amount),
        balance_type: BALANCE_OF_RAIL[b.rail],
        failure_reason: null,
        created_at: now,
        expires_at: now + QUOTE_VALIDITY_MS,
        confirmed_at: null,
        sent_at: null,
        completed_at: null,
        refunded_at: null,
      };
      insertQuote(core, row);
      return { data: { ...book.priced(row, beneficiaryOf(clock, b)), expires_at: clock.iso(row.expires_at) } };
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
