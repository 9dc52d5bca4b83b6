// The simulation API under /sandbox (spec/sandbox.yaml, bundled to generated/sandbox.json): move the clock,
// arm faults, revoke a key, set a plan, and each product's part (its simulation.ts: choose asynchronous
// outcomes, make card transactions and 3-D Secure requests, set balances ...). It acts on the account of the bearer key, like the partner API, but
// has no rate limit, plan or negative balance checks, and accepts revoked keys (so they can be restored).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { components as simulation, operations } from '../../../generated/sandbox.js';
import type { Call, Handlers, SandboxCore } from '../core/context.js';
import { simulationDocument } from '../core/contract.js';
import { documentRoutes } from '../core/document-routes.js';
import { apiError } from '../core/errors.js';
import { presentedKey } from '../http/auth.js';
import { successBody, type Outcome } from '../http/envelope.js';
import { PRODUCT_MODULES } from '../products.js';
import { faultHandlers } from './faults.js';
import { snapshotHandlers, type Inject } from './snapshots.js';

export const SIMULATION_PREFIX = '/sandbox';

export function simulationHandlers(core: SandboxCore, inject: Inject): Handlers<operations> {
  const { clock, scheduler, accounts } = core;
  const clockState = (): simulation['schemas']['ClockState'] => ({
    now: clock.iso(),
    frozen: clock.frozen,
    pending_jobs: scheduler.pending().map((j) => ({ run_at: clock.iso(j.run_at), kind: j.kind })),
  });

  return {
    ...(Object.assign({}, ...PRODUCT_MODULES.map((product) => product.simulation?.(core))) as Handlers<operations>),
    ...faultHandlers(core),
    ...snapshotHandlers(core, inject),
    getClock: () => ({ data: clockState() }),
    async advanceClock({ body }) {
      const target = body.to !== undefined ? Date.parse(body.to) : clock.now() + (body.seconds ?? 0) * 1000;
      if (target < clock.now()) {
        throw apiError('VALIDATION_ERROR', `The clock moves forward only: it is ${clock.iso()}.`, {
          fields: [{ field: 'to', message: 'must not be before the current time of the clock' }],
        });
      }
      await scheduler.advanceTo(target);
      return { data: clockState() };
    },
    freezeClock() {
      clock.freeze();
      return { data: clockState() };
    },
    resumeClock() {
      clock.resume();
      return { data: clockState() };
    },
    updateSandboxAccount({ account, ip, body }) {
      // Everything here is the key holder's to set, from any address (revoked keys included: they can be
      // restored), except the allow-list from an address it refuses: that address would lift its own refusal.
      if (body.allowed_ips !== undefined && !account.allowedIps.includes(ip)) {
        throw apiError(
          'IP_NOT_ALLOWED',
          `Requests from ${ip} are not allowed for this key, and its allowed addresses can be changed only from one of them (or with --config).`,
          null,
        );
      }
      if (body.products !== undefined) core.products.set(account.id, body.products);
      const next = accounts.update(account.apiKey, {
        ...(body.plan !== undefined ? { plan: body.plan } : {}),
        ...(body.revoked !== undefined ? { revoked: body.revoked } : {}),
        ...(body.manual !== undefined ? { manual: body.manual } : {}),
        ...(body.allowed_ips !== undefined ? { allowedIps: body.allowed_ips } : {}),
        ...(body.rate_limit !== undefined ? { rateLimit: body.rate_limit } : {}),
      });
      return {
        data: {
          mode: next.mode,
          plan: next.plan,
          revoked: next.revoked,
          manual: next.manual,
          allowed_ips: next.allowedIps,
          rate_limit: next.rateLimit,
          products: core.products.products(account.id),
        },
      };
    },
  };
}

/** Registers the simulation API on the sandbox's server. */
export function simulationRoutes(core: SandboxCore) {
  // A fixture's steps are requests to the sandbox itself, through the server the routes are registered on.
  let server: FastifyInstance | undefined;
  const handlers = simulationHandlers(core, (options) => server!.inject(options));
  return async (app: FastifyInstance): Promise<void> => {
    server = app;
    const resolver = (operationId: string) => ({
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { token, mode } = presentedKey(
          request,
          'Send the API key of the account to simulate for: `Authorization: Bearer sk_test_…`.',
        );
        request.sandbox = { ...request.sandbox, mode };
        const account = core.accounts.resolve(token);
        request.sandbox.account = account;
        const handler = handlers[operationId as keyof operations] as (call: Call<keyof operations, operations>) => unknown;
        // On the clock of the key's account: the clock operations move that clock only, and what a simulation
        // records gets its time.
        const result = (await core.clock.within(account.id, () =>
          handler({
            account,
            ip: request.ip,
            params: request.params,
            query: request.query,
            body: request.body,
            core,
          } as Call<keyof operations, operations>),
        )) as Outcome;
        return reply.send(successBody(core, request, { data: result.data }));
      },
    });
    const routes = await documentRoutes(simulationDocument());
    await app.register(
      async (scope) => {
        for (const route of routes)
          scope.route({ method: route.method, url: route.url, schema: route.schema, ...resolver(route.operationId) });
      },
      { prefix: SIMULATION_PREFIX },
    );
    for (const product of PRODUCT_MODULES) if (product.pages) await app.register(product.pages(core));
  };
}
