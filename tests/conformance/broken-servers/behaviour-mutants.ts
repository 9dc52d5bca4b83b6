// Behavioural mutants: the in-process sandbox with one documented rule broken while every answer stays
// well-shaped. Each wraps a core service of the running sandbox (the outbox, the ledger, the delivery, the card
// lifecycle, the HTTP listener) instead of copying its source, so the mutants follow the sandbox as it changes.
// tests/conformance/behaviour-mutants.test.ts runs the workflows against each and names the step that catches it.
//
// On its own: `npx tsx tests/conformance/broken-servers/behaviour-mutants.ts <mutant> [port]` serves that
// mutant (the simulation API under /sandbox) until Ctrl-C.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cardLifecycle } from '../../../src/sandbox/cards/lifecycle.ts';
import { WITHDRAWAL_FEE_MINOR, topUpFeeMinor } from '../../../src/sandbox/cards/fees.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import type { Ledger, Movement } from '../../../src/sandbox/core/ledger.ts';
import type { Mutation } from '../workflow-run.ts';

export interface BehaviourMutant {
  name: string;
  /** The rule of the interface document it breaks. */
  breaks: string;
  /** The workflows run against it (with what they call). */
  workflows: string[];
  /** The workflow step expected to catch it: `workflowId › stepId`. */
  caughtBy: string;
  mutate: Mutation;
}

/** Replaces one method of an object for the run; returns what puts it back. */
function wrap<T extends object, K extends keyof T>(target: T, key: K, make: (original: T[K]) => T[K]): () => void {
  const original = target[key];
  target[key] = make((original as (...args: unknown[]) => unknown).bind(target) as T[K]);
  return () => {
    target[key] = original;
  };
}

/** Drops the events of one type (the change itself still happens). */
const dropEvent =
  (type: string): Mutation =>
  (sandbox) =>
    wrap(
      sandbox.core.outbox,
      'emit',
      (emit) => (account, t, data) =>
        t === type ? { id: 'evt_dropped', type: t, created_at: '', data, mode: account.mode } : emit(account, t, data),
    );

/** Rewrites the ledger movements of one reason: `amount` gets the minor units actually moved (0: none). */
function ledgerMutant(
  direction: 'credit' | 'debit',
  reason: string,
  amount: (minor: number, account: Parameters<Ledger['credit']>[0]) => number,
): Mutation {
  return (sandbox) =>
    wrap(
      sandbox.core.ledger,
      direction,
      (move) => (account: Parameters<Ledger['credit']>[0], type: Parameters<Ledger['credit']>[1], minor: number, movement: Movement) => {
        if (movement.reason !== reason) return move(account, type, minor, movement);
        const moved = amount(minor, account);
        return moved === 0 ? sandbox.core.ledger.balance(account.id, type).minor : move(account, type, moved, movement);
      },
    );
}

/** Lets a frozen card be withdrawn from: during a withdrawal request, a frozen card reads as active. */
const frozenCardWithdrawable: Mutation = (sandbox) => {
  const request = new AsyncLocalStorage<string>();
  const server = sandbox.server.server;
  const [listener] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  const routed = (req: IncomingMessage, res: ServerResponse) => request.run(`${req.method} ${req.url}`, () => listener!(req, res));
  server.removeListener('request', listener!);
  server.on('request', routed);
  const lifecycle = cardLifecycle(sandbox.core);
  const undoFind = wrap(lifecycle, 'find', (find) => (account, code) => {
    const card = find(account, code);
    return /^POST \S+\/withdraw/.test(request.getStore() ?? '') && card.status === 'frozen' ? { ...card, status: 'active' } : card;
  });
  return () => {
    undoFind();
    server.removeListener('request', routed);
    server.on('request', listener!);
  };
};

export const BEHAVIOUR_MUTANTS: BehaviourMutant[] = [
  {
    name: 'freeze-sends-no-card-frozen',
    breaks: 'active → frozen on freeze: card.frozen is sent',
    workflows: ['cardFreezeUnfreeze'],
    caughtBy: 'cardFreezeUnfreeze › frozenEvent',
    mutate: dropEvent('card.frozen'),
  },
  {
    name: 'withdrawal-credits-gross-amount',
    breaks: 'the ops balance is credited with net_amount = amount - fee',
    workflows: ['cardWithdrawal'],
    caughtBy: 'cardWithdrawal › brandBalanceCredited',
    mutate: ledgerMutant('credit', 'card_withdrawal', (minor, account) => minor + WITHDRAWAL_FEE_MINOR[account.plan]),
  },
  {
    name: 'frozen-card-can-be-withdrawn-from',
    breaks: 'a withdrawal requires an active card',
    workflows: ['cardWithdrawalActiveOnly'],
    caughtBy: 'cardWithdrawalActiveOnly › withdrawFrozen',
    mutate: frozenCardWithdrawable,
  },
  {
    name: 'termination-keeps-remaining-balance',
    breaks: 'terminate: the remaining balance is returned to the ops balance',
    workflows: ['cardTermination'],
    caughtBy: 'cardTermination › balanceReturned',
    mutate: ledgerMutant('credit', 'card_termination', () => 0),
  },
  {
    name: 'topup-takes-its-fee-twice',
    breaks: 'a top-up debits its amount and fee once',
    workflows: ['cardTopUp'],
    caughtBy: 'cardTopUp › debitedOnce',
    mutate: ledgerMutant('debit', 'card_topup', (minor) => minor + topUpFeeMinor(minor)),
  },
  {
    name: 'withdrawal-sends-no-card-withdrawal-completed',
    breaks: 'a withdrawal sends card.withdrawal.completed',
    workflows: ['cardWithdrawal'],
    caughtBy: 'cardWithdrawal › withdrawalEvent',
    mutate: dropEvent('card.withdrawal.completed'),
  },
  {
    name: 'kyc-approval-not-billed',
    breaks: 'KYC approved: verification billed (balance.debited, reason kyc_verification)',
    workflows: ['kycApproved'],
    caughtBy: 'kycApproved › billedEvent',
    mutate: ledgerMutant('debit', 'kyc_verification', () => 0),
  },
  {
    name: 'failed-payout-not-refunded',
    breaks: 'a failed payout gives back what it debited',
    workflows: ['payoutFailed'],
    caughtBy: 'payoutFailed › balanceRefunded',
    mutate: ledgerMutant('credit', 'payout_failed_refund', () => 0),
  },
  {
    name: 'negative-balance-does-not-suspend',
    breaks: 'while an ops balance is negative, every request but GET is refused',
    workflows: ['negativeBalanceSuspension'],
    caughtBy: 'negativeBalanceSuspension › writeRefused',
    mutate: (sandbox) => wrap(sandbox.core.ledger, 'negativeSince', () => () => undefined),
  },
  {
    name: 'deliveries-signed-with-another-secret',
    breaks: 'deliveries are signed with the endpoint secret (HMAC-SHA256 of <timestamp>.<body>)',
    workflows: ['cardFreezeUnfreeze'],
    caughtBy: 'cardFreezeUnfreeze › events',
    mutate: (sandbox) => wrap(sandbox.core.delivery, 'post', (post) => (url, body, secret, key) => post(url, body, `${secret}x`, key)),
  },
  {
    name: 'topup-failure-not-refunded',
    breaks: 'a top-up that cannot be applied refunds its amount and fee',
    workflows: ['cardTopUpFailed'],
    caughtBy: 'cardTopUpFailed › balanceRefunded',
    mutate: ledgerMutant('credit', 'card_topup_refund', () => 0),
  },
];

/** Serves one mutant on its own. */
async function serve(name: string | undefined, port: number): Promise<RunningSandbox> {
  const mutant = BEHAVIOUR_MUTANTS.find((m) => m.name === name);
  if (!mutant) throw new Error(`name a mutant: ${BEHAVIOUR_MUTANTS.map((m) => m.name).join(', ')}`);
  const sandbox = await startSandbox({ port });
  mutant.mutate(sandbox);
  console.log(`Mutant ${mutant.name} (breaks: ${mutant.breaks}) at ${sandbox.baseUrl}, simulation API ${sandbox.simulationUrl}`);
  return sandbox;
}

if (import.meta.main) {
  const sandbox = await serve(process.argv[2], Number(process.argv[3] ?? 0));
  process.on('SIGINT', () => void sandbox.close().then(() => process.exit(0)));
}
