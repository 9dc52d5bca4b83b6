// Mock mode: every transaction is cloned once per named example of its status, and the mock is asked for that
// example (`Prefer: code=<status>, example=<name>`), so every code of a multi-code status is exercised. No
// set-up: the request examples are sent as they are.
import { isGiftCards } from './contract.ts';
import { clone, sendToAltServer, setHeader } from './transaction.ts';
import type { DreddTransaction, HookState } from './types.ts';

export function planMock(state: HookState, transactions: DreddTransaction[]): void {
  const out: DreddTransaction[] = [];
  for (const t of transactions) {
    const { method } = t.request;
    const path = t.origin.resourceName;
    const status = t.expected.statusCode;
    // Gift card operations go to --alt-server when given (the 421 wrong_api_host stays on --server).
    if (isGiftCards(path) && state.config.altServer && status !== '421') sendToAltServer(t, state.config.altServer);
    const examples = state.validator.examples(method, path, status);
    const variants = examples.length ? examples : [{ name: undefined, value: undefined }];
    const copies = variants.map((ex, i) => (i === 0 ? t : clone(t, ex.name!)));
    if (variants.length > 1) {
      t.name = `${t.name} > ${variants[0]!.name}`;
      t.id = `${t.id} ${variants[0]!.name}`;
    }
    variants.forEach((ex, i) => {
      const v = copies[i]!;
      v.conformance = { path, status, example: ex.name };
      const codes = state.validator.errorCodes(method, path, status);
      if (ex.name && codes.includes(ex.name)) v.conformance.expectCode = ex.name;
      setHeader(v, 'Authorization', `Bearer ${state.config.apiKey}`);
      setHeader(v, 'Prefer', ex.name ? `code=${status}, example=${ex.name}` : `code=${status}`);
      if (ex.value !== undefined) v.expected.body = JSON.stringify(ex.value);
      out.push(v);
    });
  }
  transactions.splice(0, transactions.length, ...out);
}
