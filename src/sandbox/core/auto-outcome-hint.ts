// What a refused simulation outcome adds when the sandbox may have chosen that outcome itself. On an account
// that does not choose outcomes (the default), a KYC link, a proof-of-address document, a card and a top-up are
// completed by themselves `autoCompleteMs` after the request: a reader who then asks for an outcome through the
// simulation API finds it already decided, and needs to know why and what to do instead.
import type { Account } from './accounts.js';
import type { SandboxCore } from './context.js';

/** A sentence to append to the refusal ('' for a manual account). */
export function autoOutcomeHint(core: SandboxCore, account: Account): string {
  if (account.manual) return '';
  return (
    ` This account does not choose outcomes: the sandbox completes each one by itself ${core.autoCompleteMs / 1000} seconds ` +
    'of its clock after the request. To choose them, make the account manual first (PATCH /sandbox/account ' +
    '{"manual": true}, or start the sandbox with --manual).'
  );
}
