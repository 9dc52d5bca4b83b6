// Proof of address's part of the simulation API (spec/sandbox.yaml): choose the review outcome of the pending document.
import type { operations } from '../../../generated/sandbox.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { reviewPoa } from './rules.js';

export function poaSimulation(core: SandboxCore): Handlers<operations> {
  return {
    simulatePoaOutcome({ account, params, body }) {
      return { data: reviewPoa(core, account, params.customerCode, body) };
    },
  };
}
