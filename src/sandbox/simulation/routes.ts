// The simulation API under /sandbox (spec/sandbox.yaml, bundled to generated/sandbox.json): move the clock,
// choose asynchronous outcomes (card issuance, top-ups), make card transactions and 3-D Secure requests, set
// balances, revoke a key, set a plan. It acts on the account of the bearer key, like the partner API, but
// has no rate limit, plan or negative balance checks, and accepts revoked keys (so they can be restored).
import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { components } from '../../../generated/openapi.js';
import type { components as simulation, operations } from '../../../generated/sandbox.js';
import type { BalanceType } from '../core/accounts.js';
import type { Call, Handlers, SandboxCore } from '../core/context.js';
import { simulationDocument } from '../core/contract.js';
import { documentRoutes } from '../core/document-routes.js';
import { apiError, notFound, stateError } from '../core/errors.js';
import { toAmount, toMinor } from '../core/money.js';
import { presentedKey } from '../http/auth.js';
import { successBody, type Outcome } from '../http/envelope.js';
import { cardLifecycle } from '../cards/handlers.js';
import { WITHDRAWAL_FAILURE_REASON, cardEventBase } from '../cards/lifecycle.js';
import { cardOf, newTransactionId, transactionOf } from '../cards/repository.js';
import { balanceOf } from '../balances/handlers.js';
import { findCustomer } from '../customers/handlers.js';
import { kycStatusOf } from '../kyc/handlers.js';
import { kycPage } from '../kyc/page.js';
import { kycVerification } from '../kyc/verification.js';
import { reviewPoa } from '../poa/handlers.js';
import { faultHandlers } from './faults.js';
// Money products (sandbox-money).
import { GiftCardOrders, giftCardOrders } from '../gift-cards/handlers.js';
import { payoutBook } from '../payouts/handlers.js';
import { findVirtualAccount, virtualAccountMovements } from '../virtual-accounts/handlers.js';
import { toMicro, walletBook, walletOf, withdrawalOf, type WalletRow, type WithdrawalRow } from '../wallets/handlers.js';

export const SIMULATION_PREFIX = '/sandbox';

export function simulationHandlers(core: SandboxCore): Handlers<operations> {
  const lifecycle = cardLifecycle(core);
  const { clock, scheduler, db, outbox, ledger, accounts } = core;
  const clockState = (): simulation['schemas']['ClockState'] => ({
    now: clock.iso(),
    frozen: clock.frozen,
    pending_jobs: scheduler.pending().map((j) => ({ run_at: clock.iso(j.run_at), kind: j.kind })),
  });

  const walletView = (w: WalletRow) => walletOf(clock, w);
  const withdrawalView = (w: WithdrawalRow) => {
    const wallet = db.get<{ currency: string; network: string }>('SELECT currency, network FROM wallets WHERE id = ?', w.wallet_id)!;
    return withdrawalOf(core, { ...w, ...wallet });
  };
  return {
    ...faultHandlers(core),
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
    simulateCardIssuance({ account, params, body }) {
      const card = lifecycle.find(account, params.code);
      return { data: cardOf(clock, lifecycle.issue(card, body)) };
    },
    simulateTopUpOutcome({ account, params, body }) {
      const topUp = lifecycle.repo.topUp(params.topup_id);
      if (!topUp || topUp.account_id !== account.id) throw notFound('Top-up');
      const done = lifecycle.completeTopUp(topUp, body);
      return { data: { topup_id: done.id, status: done.status } };
    },
    armCardWithdrawalFailure({ account, params, body }) {
      const card = lifecycle.find(account, params.code);
      const reason = body?.reason ?? WITHDRAWAL_FAILURE_REASON;
      lifecycle.armWithdrawalFailure(card, reason);
      return { data: { card_code: card.code, next: 'withdrawal_failure' as const, reason } };
    },
    armCardTerminationDelay({ account, params }) {
      const card = lifecycle.find(account, params.code);
      lifecycle.armTerminationDelay(card);
      return { data: { card_code: card.code, next: 'termination_delay' as const, reason: null } };
    },
    simulateCardTerminationOutcome({ account, params }) {
      return { data: cardOf(clock, lifecycle.completePendingTermination(lifecycle.find(account, params.code))) };
    },
    simulateCardTransaction({ account, params, body }) {
      return db.transaction(() => {
        const card = lifecycle.find(account, params.code);
        if (card.status !== 'active' && card.status !== 'frozen') throw stateError('card_not_usable', `This card is ${card.status}.`, card.status);
        const amount = toMinor(body.amount);
        let type: components['schemas']['CardTransactionType'] = body.type;
        let failure: string | null = body.type === 'decline' ? (body.failure_reason ?? 'declined_by_issuer') : null;
        const payment = type === 'auth' || type === 'settle';
        if (payment && card.status === 'frozen') (type = 'decline'), (failure = 'card_frozen');
        else if (payment && amount > card.balance_minor) (type = 'decline'), (failure = 'insufficient_funds');
        const delta = type === 'auth' || type === 'settle' ? -amount : type === 'refund' ? amount : 0;
        const after = card.balance_minor + delta;
        const merchant = body.merchant_name ?? 'SANDBOX MERCHANT';
        const row = {
          id: newTransactionId(),
          card_code: card.code,
          type,
          direction: type === 'refund' ? ('credit' as const) : ('debit' as const),
          status: type === 'decline' ? 'declined' : 'completed',
          amount_minor: amount,
          currency: 'USD',
          merchant_name: merchant,
          merchant_city: body.merchant_city ?? null,
          merchant_country: body.merchant_country ?? null,
          description: type === 'refund' ? `Refund from ${merchant}` : type === 'decline' ? `Declined payment at ${merchant}` : `Card payment at ${merchant}`,
          failure_reason: failure,
          balance_after_minor: after,
          date: clock.now(),
        };
        lifecycle.repo.setBalance(card.code, after);
        lifecycle.repo.insertTransaction(account.id, row);
        const transaction = { ...transactionOf(clock, row), type };
        outbox.emit(account, 'card.transaction', { ...cardEventBase(core, lifecycle.repo.byCode(card.code)!), transaction });
        return { data: transaction };
      });
    },
    simulateCard3dsRequest({ account, params, body }) {
      return db.transaction(() => {
        const card = lifecycle.find(account, params.code);
        if (card.status !== 'active') throw stateError('card_not_active', `This card is ${card.status}.`, card.status);
        const otp = String(randomInt(1_000_000)).padStart(6, '0');
        outbox.emit(account, 'card.3ds_request', {
          ...cardEventBase(core, card),
          otp,
          merchant_name: body.merchant_name ?? 'SANDBOX MERCHANT',
          amount: toAmount(toMinor(body.amount)).toFixed(2),
          transaction_currency: body.currency ?? 'USD',
        });
        return { data: { otp } };
      });
    },
    // Money products (sandbox-money).
    simulateWalletDeposit({ account, params, body }) {
      const book = walletBook(core);
      const wallet = book.find(account, params.wallet_id);
      return { data: walletView(book.deposit(account, wallet, toMicro(body.amount), body.from_address, body.tx_hash)) };
    },
    simulateWalletWithdrawal({ account, params, body }) {
      const book = walletBook(core);
      const wallet = book.find(account, params.wallet_id);
      return { data: withdrawalView(book.requestWithdrawal(account, wallet, toMicro(body.amount), body.to_address)) };
    },
    simulateWalletWithdrawalOutcome({ account, params, body }) {
      const book = walletBook(core);
      const withdrawal = book.withdrawal(params.code);
      if (!withdrawal || withdrawal.account_id !== account.id) throw notFound('Wallet withdrawal');
      return { data: withdrawalView(book.settleWithdrawal(withdrawal, body)) };
    },
    simulateVirtualAccountDeposit({ account, params, body }) {
      const va = findVirtualAccount(core, account, params.code);
      const balance = virtualAccountMovements(core).deposit(account, va, toMinor(body.amount), body.sender_name ?? null, body.reference ?? null);
      return { data: { virtual_account_code: va.code, kind: 'deposit' as const, status: 'received' as const, transfer_id: null, reason: null, amount: body.amount, balance: toAmount(balance) } };
    },
    simulateVirtualAccountTransfer({ account, params, body }) {
      const va = findVirtualAccount(core, account, params.code);
      const fail = body.outcome === 'failed' ? (body.reason ?? 'rejected_by_bank') : undefined;
      const t = virtualAccountMovements(core).transfer(account, va, toMinor(body.amount), body.reference ?? null, fail);
      return { data: { virtual_account_code: va.code, kind: 'transfer' as const, status: t.status, transfer_id: t.transfer_id, reason: t.reason, amount: body.amount, balance: toAmount(t.balance) } };
    },
    simulatePayoutOutcome({ account, params, body }) {
      const book = payoutBook(core);
      return { data: book.view(book.move(book.find(account, params.code), body)) };
    },
    simulateGiftCardOrderOutcome({ account, params, body }) {
      const orders = giftCardOrders(core);
      return { data: GiftCardOrders.view(clock, orders.settle(orders.find(account, params.code), body)) };
    },
    // End of the money products.
    setBalance({ account, params, body }) {
      const type = params.type as BalanceType;
      db.transaction(() => {
        if (body.low_balance_threshold !== undefined) ledger.setThreshold(account.id, type, toMinor(body.low_balance_threshold));
        if (body.balance !== undefined) ledger.set(account, type, toMinor(body.balance));
      });
      return { data: balanceOf(core, ledger.balance(account.id, type)) };
    },
    // KYC and proof of address
    simulateKycOutcome({ account, params, body }) {
      const kyc = kycVerification(core);
      if (!findCustomer(core, account.id, params.customerCode)) throw notFound('Customer');
      kyc.apply(account, params.customerCode, body);
      return { data: kycStatusOf(core, kyc, findCustomer(core, account.id, params.customerCode)!) };
    },
    simulatePoaOutcome({ account, params, body }) {
      return { data: reviewPoa(core, account, params.customerCode, body) };
    },
    simulateBalanceDeposit({ account, params, body }) {
      const type = params.type as BalanceType;
      const gross = toMinor(body.gross_amount);
      const fee = toMinor(body.fee ?? 0);
      if (fee >= gross) {
        throw apiError('VALIDATION_ERROR', 'The fee must be less than the gross amount.', { fields: [{ field: 'fee', message: 'must be less than gross_amount' }] });
      }
      db.transaction(() => {
        const source = body.gift_card_code !== undefined ? { type: 'gift_card_redemption', gift_card_code: body.gift_card_code } : undefined;
        ledger.credit(account, type, gross - fee, {
          reason: source ? 'gift_card_redemption' : 'deposit',
          description: source ? `Gift card ${body.gift_card_code} redeemed` : 'Deposit (sandbox simulation)',
        });
        outbox.emit(account, 'balance.deposit_confirmed', {
          balance_type: type,
          gross_amount: toAmount(gross),
          fee: toAmount(fee),
          amount: toAmount(gross - fee),
          ...(source ? { source } : {}),
        });
      });
      return { data: balanceOf(core, ledger.balance(account.id, type)) };
    },
    updateSandboxAccount({ account, body }) {
      if (body.products !== undefined) core.products.set(account.id, body.products);
      const next = accounts.update(account.apiKey, {
        ...(body.plan !== undefined ? { plan: body.plan } : {}),
        ...(body.revoked !== undefined ? { revoked: body.revoked } : {}),
        ...(body.manual !== undefined ? { manual: body.manual } : {}),
        ...(body.allowed_ips !== undefined ? { allowedIps: body.allowed_ips } : {}),
        ...(body.rate_limit !== undefined ? { rateLimit: body.rate_limit } : {}),
      });
      return { data: { mode: next.mode, plan: next.plan, revoked: next.revoked, manual: next.manual, allowed_ips: next.allowedIps, rate_limit: next.rateLimit, products: core.products.products(account.id) } };
    },
  };
}

/** Registers the simulation API on the sandbox's server. */
export function simulationRoutes(core: SandboxCore) {
  const handlers = simulationHandlers(core);
  return async (app: FastifyInstance): Promise<void> => {
    const resolver = (operationId: string) => ({
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { token, mode } = presentedKey(request, 'Send the API key of the account to simulate for: `Authorization: Bearer sk_test_…`.');
        request.sandbox = { ...request.sandbox, mode };
        const account = core.accounts.resolve(token);
        request.sandbox.account = account;
        const handler = handlers[operationId as keyof operations] as (call: Call<keyof operations, operations>) => unknown;
        const result = (await handler({ account, params: request.params, query: request.query, body: request.body, core } as Call<keyof operations, operations>)) as Outcome;
        return reply.send(successBody(core, request, { data: result.data }));
      },
    });
    const routes = await documentRoutes(simulationDocument());
    await app.register(
      async (scope) => {
        for (const route of routes) scope.route({ method: route.method, url: route.url, schema: route.schema, ...resolver(route.operationId) });
      },
      { prefix: SIMULATION_PREFIX },
    );
    await app.register(kycPage(core));
  };
}
