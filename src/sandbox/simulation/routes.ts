// The simulation API under /sandbox: move the clock, choose asynchronous outcomes (card issuance, top-ups),
// make card transactions and 3-D Secure requests, set balances, revoke a key, set a plan. It acts on the
// account of the bearer key, like the partner API. Not part of the partner API: no rate limit, no plan or
// negative balance checks. See docs/sandbox.md.
import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_KEY, BALANCE_TYPES, PLANS, modeOfKey, type Account, type BalanceType } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { ApiError, notFound, stateError } from '../core/errors.js';
import { toAmount, toMinor } from '../core/money.js';
import { cardLifecycle } from '../cards/handlers.js';
import { cardEventBase } from '../cards/lifecycle.js';
import { newTransactionId, transactionOf } from '../cards/repository.js';

const money = { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000, 'x-decimal-places': 2 } as const;
const uuidParam = { type: 'object', required: ['code'], properties: { code: { type: 'string', format: 'uuid' } } } as const;
const closed = <P extends Record<string, unknown>>(properties: P, required: (keyof P & string)[] = []) =>
  ({ type: 'object', additionalProperties: false, required, properties }) as const;

export function simulationRoutes(core: SandboxCore) {
  return (app: FastifyInstance): void => {
    const lifecycle = cardLifecycle(core);
    const { clock, scheduler, db, outbox, ledger, accounts } = core;

    const accountOf = (request: FastifyRequest): Account => {
      const header = request.headers.authorization;
      const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!header) throw new ApiError(401, 'AUTHENTICATION_REQUIRED', 'Send the API key of the account to simulate for: `Authorization: Bearer sk_test_…`.', null);
      if (!token || !API_KEY.test(token)) throw new ApiError(401, 'AUTHENTICATION_FAILED', 'The API key is invalid.', null);
      request.sandbox = { mode: modeOfKey(token) };
      const account = accounts.resolve(token);
      request.sandbox.account = account;
      return account;
    };
    const ok = (request: FastifyRequest, data: unknown) => ({
      success: true,
      data,
      meta: { request_id: String(request.id), mode: request.sandbox?.mode ?? 'test', timestamp: clock.iso() },
    });
    const clockState = () => ({ now: clock.iso(), frozen: clock.frozen, pending_jobs: scheduler.pending().map((j) => ({ run_at: clock.iso(j.run_at), kind: j.kind })) });

    app.get('/sandbox/clock', async (request) => {
      accountOf(request);
      return ok(request, clockState());
    });
    app.post('/sandbox/clock/advance', {
      schema: { body: { type: 'object', additionalProperties: false, minProperties: 1, maxProperties: 1, properties: { seconds: { type: 'integer', minimum: 0, maximum: 31_622_400 }, to: { type: 'string', format: 'date-time' } } } },
    }, async (request) => {
      accountOf(request);
      const body = request.body as { seconds?: number; to?: string };
      const target = body.to !== undefined ? Date.parse(body.to) : clock.now() + body.seconds! * 1000;
      if (target < clock.now()) throw new ApiError(422, 'VALIDATION_ERROR', `The clock moves forward only: it is ${clock.iso()}.`, { fields: [{ field: 'to', message: 'must not be before the current time of the clock' }] });
      await scheduler.advanceTo(target);
      return ok(request, clockState());
    });
    app.post('/sandbox/clock/freeze', async (request) => {
      accountOf(request);
      clock.freeze();
      return ok(request, clockState());
    });
    app.post('/sandbox/clock/resume', async (request) => {
      accountOf(request);
      clock.resume();
      return ok(request, clockState());
    });

    app.post('/sandbox/cards/:code/issuance', {
      schema: { params: uuidParam, body: closed({ outcome: { type: 'string', enum: ['activated', 'failed'] }, reason: { type: 'string', minLength: 1, maxLength: 200 } }, ['outcome']) },
    }, async (request) => {
      const account = accountOf(request);
      const body = request.body as { outcome: 'activated' | 'failed'; reason?: string };
      const card = lifecycle.find(account, (request.params as { code: string }).code);
      return ok(request, lifecycle.issue(card, body).status);
    });

    app.post('/sandbox/topups/:id/outcome', {
      schema: { params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } } }, body: closed({ outcome: { type: 'string', enum: ['completed', 'failed'] }, reason: { type: 'string', minLength: 1, maxLength: 200 } }, ['outcome']) },
    }, async (request) => {
      const account = accountOf(request);
      const topUp = lifecycle.repo.topUp((request.params as { id: string }).id);
      if (!topUp || topUp.account_id !== account.id) throw notFound('Top-up');
      const done = lifecycle.completeTopUp(topUp, request.body as { outcome: 'completed' | 'failed'; reason?: string });
      return ok(request, { topup_id: done.id, status: done.status });
    });

    app.post('/sandbox/cards/:code/transactions', {
      schema: {
        params: uuidParam,
        body: closed(
          {
            type: { type: 'string', enum: ['auth', 'settle', 'decline', 'refund'] },
            amount: money,
            merchant_name: { type: 'string', minLength: 1, maxLength: 100 },
            merchant_city: { type: 'string', maxLength: 100 },
            merchant_country: { type: 'string', pattern: '^[A-Z]{2}$' },
            failure_reason: { type: 'string', maxLength: 200 },
          },
          ['type', 'amount'],
        ),
      },
    }, async (request) => {
      const account = accountOf(request);
      const body = request.body as { type: 'auth' | 'settle' | 'decline' | 'refund'; amount: number; merchant_name?: string; merchant_city?: string; merchant_country?: string; failure_reason?: string };
      return ok(request, db.transaction(() => {
        const card = lifecycle.find(account, (request.params as { code: string }).code);
        if (card.status !== 'active' && card.status !== 'frozen') throw stateError('card_not_usable', `This card is ${card.status}.`, card.status);
        const amount = toMinor(body.amount);
        let type: string = body.type;
        let failure: string | null = body.type === 'decline' ? (body.failure_reason ?? 'declined_by_issuer') : null;
        if ((type === 'auth' || type === 'settle') && card.status === 'frozen') (type = 'decline'), (failure = 'card_frozen');
        else if ((type === 'auth' || type === 'settle') && amount > card.balance_minor) (type = 'decline'), (failure = 'insufficient_funds');
        const delta = type === 'auth' || type === 'settle' ? -amount : type === 'refund' ? amount : 0;
        const after = card.balance_minor + delta;
        const merchant = body.merchant_name ?? 'SANDBOX MERCHANT';
        const row = {
          id: newTransactionId(), card_code: card.code, type, direction: type === 'refund' ? ('credit' as const) : ('debit' as const), status: type === 'decline' ? 'declined' : 'completed',
          amount_minor: amount, currency: 'USD', merchant_name: merchant, merchant_city: body.merchant_city ?? null, merchant_country: body.merchant_country ?? null,
          description: type === 'refund' ? `Refund from ${merchant}` : type === 'decline' ? `Declined payment at ${merchant}` : `Card payment at ${merchant}`,
          failure_reason: failure, balance_after_minor: after, date: clock.now(),
        };
        lifecycle.repo.setBalance(card.code, after);
        lifecycle.repo.insertTransaction(account.id, row);
        const transaction = transactionOf(clock, row);
        outbox.emit(account, 'card.transaction', { ...cardEventBase(core, lifecycle.repo.byCode(card.code)!), transaction });
        return transaction;
      }));
    });

    app.post('/sandbox/cards/:code/3ds', {
      schema: { params: uuidParam, body: closed({ amount: money, merchant_name: { type: 'string', minLength: 1, maxLength: 100 }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } }, ['amount']) },
    }, async (request) => {
      const account = accountOf(request);
      const body = request.body as { amount: number; merchant_name?: string; currency?: string };
      return ok(request, db.transaction(() => {
        const card = lifecycle.find(account, (request.params as { code: string }).code);
        if (card.status !== 'active') throw stateError('card_not_active', `This card is ${card.status}.`, card.status);
        const otp = String(randomInt(1_000_000)).padStart(6, '0');
        const data = { ...cardEventBase(core, card), otp, merchant_name: body.merchant_name ?? 'SANDBOX MERCHANT', amount: toAmount(toMinor(body.amount)).toFixed(2), transaction_currency: body.currency ?? 'USD' };
        outbox.emit(account, 'card.3ds_request', data);
        return { otp };
      }));
    });

    app.put('/sandbox/balances/:type', {
      schema: {
        params: { type: 'object', properties: { type: { type: 'string', enum: [...BALANCE_TYPES] } } },
        body: { type: 'object', additionalProperties: false, minProperties: 1, properties: { balance: { type: 'number', minimum: -1_000_000, maximum: 100_000_000, 'x-decimal-places': 2 }, low_balance_threshold: { type: 'number', minimum: 0, maximum: 1_000_000, 'x-decimal-places': 2 } } },
      },
    }, async (request) => {
      const account = accountOf(request);
      const type = (request.params as { type: BalanceType }).type;
      const body = request.body as { balance?: number; low_balance_threshold?: number };
      db.transaction(() => {
        if (body.low_balance_threshold !== undefined) ledger.setThreshold(account.id, type, toMinor(body.low_balance_threshold));
        if (body.balance !== undefined) ledger.set(account, type, toMinor(body.balance));
      });
      const b = ledger.balance(account.id, type);
      return ok(request, { type, balance: toAmount(b.minor), lowBalanceThreshold: toAmount(b.low_threshold_minor), negative_balance_since: b.negative_since === null ? null : clock.iso(b.negative_since) });
    });

    app.patch('/sandbox/account', {
      schema: {
        body: {
          type: 'object', additionalProperties: false, minProperties: 1,
          properties: {
            plan: { type: 'string', enum: [...PLANS] },
            revoked: { type: 'boolean' },
            manual: { type: 'boolean' },
            allowed_ips: { type: 'array', maxItems: 10, uniqueItems: true, items: { type: 'string', maxLength: 45 } },
            rate_limit: { type: ['integer', 'null'], minimum: 1, maximum: 100_000 },
          },
        },
      },
    }, async (request) => {
      const account = accountOf(request);
      const body = request.body as { plan?: Account['plan']; revoked?: boolean; manual?: boolean; allowed_ips?: string[]; rate_limit?: number | null };
      const next = accounts.update(account.apiKey, {
        ...(body.plan !== undefined ? { plan: body.plan } : {}),
        ...(body.revoked !== undefined ? { revoked: body.revoked } : {}),
        ...(body.manual !== undefined ? { manual: body.manual } : {}),
        ...(body.allowed_ips !== undefined ? { allowedIps: body.allowed_ips } : {}),
        ...(body.rate_limit !== undefined ? { rateLimit: body.rate_limit } : {}),
      });
      return ok(request, { mode: next.mode, plan: next.plan, revoked: next.revoked, manual: next.manual, allowed_ips: next.allowedIps, rate_limit: next.rateLimit });
    });
  };
}
