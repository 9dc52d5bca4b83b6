// Gift cards' part of the simulation API (spec/sandbox.yaml): an order's outcome (delivered, failed, refunded).
import type { operations } from '../../../generated/sandbox.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { findOrder, orderOf } from './repository.js';
import { giftCardOrders } from './rules.js';

export function giftCardSimulation(core: SandboxCore): Handlers<operations> {
  return {
    simulateGiftCardOrderOutcome({ account, params, body }) {
      const settled = giftCardOrders(core).settle(findOrder(core, account, params.code), body);
      return { data: orderOf(core.clock, settled, true) };
    },
  };
}
