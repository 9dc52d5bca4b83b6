// The simulation API's faults (`POST`, `GET`, `DELETE /sandbox/faults`): arm the next requests of one partner
// API operation to answer a documented 500 or 502 (src/sandbox/core/faults.ts), list them, disarm them; and the
// webhook delivery fault plan of the account (`/sandbox/webhook-faults`, src/sandbox/core/delivery-faults.ts).
import type { components as simulation, operations } from '../../../generated/sandbox.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { operationsOf } from '../core/contract.js';
import { sandboxDocument } from '../core/contract.js';
import { validationError } from '../core/errors.js';
import type { Fault, FaultStatus } from '../core/faults.js';

type FaultView = simulation['schemas']['Fault'];

export function faultHandlers(core: SandboxCore): Handlers<operations> {
  const statuses = new Map(operationsOf(sandboxDocument()).map((o) => [o.operationId, o.statuses]));
  const view = (f: Fault): FaultView => ({ ...f, created_at: core.clock.iso(f.created_at) });
  return {
    armFault({ account, body }) {
      const documented = statuses.get(body.operation_id);
      if (!documented) {
        throw validationError(`${body.operation_id} is not an operationId of the partner API.`, [
          { field: 'operation_id', message: 'must be the operationId of a partner API operation' },
        ]);
      }
      if (!documented.includes(String(body.status))) {
        throw validationError(`${body.operation_id} does not document the status ${body.status} (it documents ${documented.join(', ')}).`, [
          { field: 'status', message: `must be a status that ${body.operation_id} documents` },
        ]);
      }
      const fault = core.faults.arm(
        account.id,
        { operationId: body.operation_id, status: body.status as FaultStatus, count: body.count ?? 1, message: body.message },
        core.clock.now(),
      );
      return { data: view(fault) };
    },
    listFaults({ account }) {
      return { data: core.faults.list(account.id).map(view) };
    },
    clearFaults({ account }) {
      return { data: { cleared: core.faults.clear(account.id) } };
    },
    setWebhookFaults({ account, body }) {
      const held = core.delivery.faults.set(account.id, {
        seed: body.seed ?? 1,
        duplicateShare: body.duplicate_share ?? 0,
        failureShare: body.failure_share ?? 0,
        delayMs: (body.delay_seconds ?? 0) * 1000,
        reorderWindow: body.reorder_window ?? null,
      });
      // What the old plan held goes as it was created: holding it under a new window would mix two plans' draws.
      core.delivery.release(held);
      return { data: core.delivery.faults.view(account.id) };
    },
    getWebhookFaults({ account }) {
      return { data: core.delivery.faults.view(account.id) };
    },
    clearWebhookFaults({ account }) {
      core.delivery.release(core.delivery.faults.clear(account.id));
      return { data: core.delivery.faults.view(account.id) };
    },
  };
}
