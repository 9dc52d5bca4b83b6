// Payouts' part of the simulation API (spec/sandbox.yaml): move a payout (processing, completed, failed, refunded).
import type { operations } from '../../../generated/sandbox.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { payoutBook } from './rules.js';

export function payoutSimulation(core: SandboxCore): Handlers<operations> {
  return {
    simulatePayoutOutcome({ account, params, body }) {
      const book = payoutBook(core);
      return { data: book.view(book.move(book.find(account, params.code), body)) };
    },
  };
}
