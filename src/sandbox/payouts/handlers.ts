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
import { beneficiaryOf, listWhere, mask, type Beneficiary, type BeneficiaryRow, type PayoutRow } from './repository.js';
import { payoutBook } from './rules.js';

export function payouts(core: SandboxCore): Handlers {
  const { db, clock } = core;
  const book = payoutBook(core);
  return {
    createBeneficiary({ account, body }) {
      const customer = requireActiveCustomer(core, account.id, body.customer_code);
      const address = { state_province: '', ...body.address };
      let view: Omit<Beneficiary, 'code' | 'customer_code' | 'rail' | 'created_at'>;
      if (body.rail === 'sepa') {
        const country = body.iban.slice(0, 2);
        if (!body.bic_swift && !SEPA_COUNTRIES.has(country)) {
          throw validationError('The bank of this IBAN cannot be found: send its BIC in bic_swift.', [{ field: 'bic_swift', message: 'is required for this IBAN' }]);
        }
        view = { type: body.type, name: body.name, bank_name: body.bank_name, iban_masked: mask(body.iban, 4), bic_swift: body.bic_swift ?? `SNDB${country}PP`, account_number_masked: null, routing_number: null, account_type: null, address };
      } else {
        view = { type: body.type, name: body.name, bank_name: body.bank_name, iban_masked: null, bic_swift: null, account_number_masked: mask(body.account_number, 0), routing_number: body.routing_number, account_type: body.account_type ?? 'checking', address };
      }
      const code = randomUUID();
      db.run('INSERT INTO beneficiaries (code, account_id, customer_code, rail, body, deleted_at, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?)', code, account.id, customer.code, body.rail, JSON.stringify(view), clock.now());
      return { data: beneficiaryOf(clock, book.beneficiary(account, code)) };
    },

    listBeneficiaries({ account, query }) {
      checkCustomerFilter(core, account.id, query.customer_code);
      const [where, args] = listWhere(account.id, query, ['customer_code'], 'account_id = ? AND deleted_at IS NULL');
      const [limit, offset] = pageWindow(query);
      const rows = db.all<BeneficiaryRow>(`SELECT * FROM beneficiaries WHERE ${where} ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`, ...args, limit, offset);
      const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM beneficiaries WHERE ${where}`, ...args)!.n;
      return page(rows.map((r) => beneficiaryOf(clock, r)), total, query);
    },

    getBeneficiary({ account, params }) {
      return { data: beneficiaryOf(clock, book.beneficiary(account, params.code)) };
    },

    deleteBeneficiary({ account, params }) {
      const row = book.beneficiary(account, params.code);
      db.run('UPDATE beneficiaries SET deleted_at = ? WHERE code = ?', clock.now(), row.code);
      return { data: { code: row.code, deleted: true } };
    },

    createPayoutQuote({ account, body }) {
      const amount = requestAmountMinor('amount_usd', body.amount_usd);
      const b = book.beneficiary(account, body.beneficiary_code);
      requireActiveCustomer(core, account.id, b.customer_code);
      const now = clock.now();
      const row: PayoutRow = {
        code: randomUUID(), account_id: account.id, customer_code: b.customer_code, beneficiary_code: b.code, reference: body.reference, rail: b.rail, status: 'quote',
        amount_minor: amount, fee_minor: payoutFeeMinor(b.rail, amount), received_minor: b.rail === 'sepa' ? toEurMinor(amount) : amount, amount_eur_minor: toEurMinor(amount),
        balance_type: BALANCE_OF_RAIL[b.rail], failure_reason: null, created_at: now, expires_at: now + QUOTE_VALIDITY_MS, confirmed_at: null, sent_at: null, completed_at: null, refunded_at: null,
      };
      db.run(
        `INSERT INTO payouts (code, account_id, customer_code, beneficiary_code, reference, rail, status, amount_minor, fee_minor, received_minor, amount_eur_minor, balance_type, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, 'quote', ?, ?, ?, ?, ?, ?, ?)`,
        row.code, account.id, row.customer_code, row.beneficiary_code, row.reference, row.rail, row.amount_minor, row.fee_minor, row.received_minor, row.amount_eur_minor, row.balance_type, now, row.expires_at,
      );
      return { data: { ...book.priced(row, beneficiaryOf(clock, b)), expires_at: clock.iso(row.expires_at) } };
    },

    createPayout({ account, body }) {
      return { data: book.view(book.confirm(account, body.quote_code)) };
    },

    listPayouts({ account, query }) {
      checkCustomerFilter(core, account.id, query.customer_code);
      const [from, to] = createdRange(query);
      const [where, args] = listWhere(account.id, query, ['customer_code', 'status'], "account_id = ? AND status != 'quote' AND created_at >= ? AND created_at < ?");
      args.splice(1, 0, from, to);
      const [limit, offset] = pageWindow(query);
      const rows = db.all<PayoutRow>(`SELECT * FROM payouts WHERE ${where} ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`, ...args, limit, offset);
      const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM payouts WHERE ${where}`, ...args)!.n;
      return page(rows.map((r) => book.view(r)), total, query);
    },

    getPayout({ account, params }) {
      return { data: book.view(book.find(account, params.code)) };
    },
  };
}
