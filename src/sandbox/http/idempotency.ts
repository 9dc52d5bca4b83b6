// Idempotency of the partner API's POSTs (src/sandbox/core/idempotency.ts keeps the answers): a POST with an
// Idempotency-Key waits for a run with the same key, replays its answer, or marks this run; the answer it
// gets is kept when it is sent (the operation routes keep a synchronous one inside its transaction).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Account } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { apiError } from '../core/errors.js';
import { IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_PATTERN, IdempotencyStore } from '../core/idempotency.js';

export interface IdempotencyOptions {
  core: SandboxCore;
  store: IdempotencyStore;
}

export const idempotency = fp<IdempotencyOptions>(
  async (app: FastifyInstance, { core, store }) => {
    /** Waits for a run with the same key, replays its answer (true), or marks this run. */
    const idempotent = async (request: FastifyRequest, reply: FastifyReply, account: Account, key: unknown): Promise<boolean> => {
      if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
        throw apiError('VALIDATION_ERROR', `Idempotency-Key must match ${IDEMPOTENCY_KEY_PATTERN}.`, {
          fields: [{ field: 'Idempotency-Key', message: `must match ${IDEMPOTENCY_KEY_PATTERN} (pattern)` }],
        });
      }
      const fingerprint = IdempotencyStore.fingerprint(request.method, request.url, request.body);
      const slot = await store.acquire(account.id, key, core.clock.of(account.id).now());
      if ('kept' in slot && slot.kept.fingerprint !== fingerprint) {
        throw apiError('VALIDATION_ERROR', 'This Idempotency-Key was used with another method, path or body.', {
          fields: [{ field: 'Idempotency-Key', message: 'was used for another request' }],
          reason: 'idempotency_key_reused',
        });
      }
      if ('kept' in slot) {
        request.sandbox.idempotency = { key, fingerprint, end: () => {}, replayed: true };
        reply
          .code(slot.kept.status)
          .header('Idempotent-Replayed', 'true')
          .type('application/json')
          .serializer((p: unknown) => String(p))
          .send(slot.kept.body);
        return true;
      }
      request.sandbox.idempotency = { key, fingerprint, end: slot.end, replayed: false };
      return false;
    };

    // Before the access checks (a later hook): every answer from here on is the operation's and is kept. A
    // replay sends its answer and ends the request's hooks there (it does not call `done`).
    app.addHook('preHandler', (request, reply, done) => {
      const { route, account } = request.sandbox;
      const key = request.headers['idempotency-key'];
      if (!route.operation || !account || route.operation.method !== 'POST' || key === undefined) return done();
      idempotent(request, reply, account, key).then((replayed) => {
        if (!replayed) done();
      }, done);
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      const idem = request.sandbox?.idempotency;
      const account = request.sandbox?.account;
      if (idem && !idem.replayed && !idem.kept && account && reply.statusCode < 500 && typeof payload === 'string') {
        store.keep(
          account.id,
          idem.key,
          { fingerprint: idem.fingerprint, status: reply.statusCode, body: payload },
          core.clock.of(account.id).now(),
        );
      }
      // The run ends with its answer, whether or not its client still waits: a client that gave up (a time-out
      // shorter than a webhook ping) retries with the same key, and that retry must get the kept answer.
      idem?.end();
      done(null, payload);
    });

    app.addHook('onResponse', (request, _reply, done) => {
      request.sandbox?.idempotency?.end();
      done();
    });
  },
  { name: 'sandbox-idempotency' },
);
