// The access checks of an operation of the partner API, after idempotency (their answers are kept): the
// plan's products (402), the negative-balance suspension (403, all but GET), and a simulated fault armed
// through the simulation API (src/sandbox/core/faults.ts), which answers in place of the operation.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SandboxCore } from '../core/context.js';
import { apiError } from '../core/errors.js';

export const accessChecks = fp<{ core: SandboxCore }>(
  async (app: FastifyInstance, { core }) => {
    app.addHook('preHandler', (request, _reply, done) => {
      const { route, account } = request.sandbox;
      const operation = route.operation;
      if (!operation || !account) return done();
      const refusal = core.products.refusal(account, operation.tag);
      if (refusal) throw apiError('PLAN_UPGRADE_REQUIRED', refusal, null);
      if (operation.method !== 'GET') {
        const since = core.ledger.negativeSince(account.id);
        if (since !== undefined) {
          throw apiError(
            'ACCOUNT_SUSPENDED_NEGATIVE_BALANCE',
            'An ops balance is negative: only GET requests are accepted until it is funded.',
            {
              negative_balance_since: core.clock.iso(since),
            },
          );
        }
      }
      const fault = core.faults.take(account.id, operation.operationId);
      if (fault) throw fault;
      done();
    });
  },
  { name: 'sandbox-access-checks' },
);
