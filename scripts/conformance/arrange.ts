// Real mode: the state one transaction needs, brought about just before it is sent and undone just after
// (Dredd's beforeEach and afterEach hooks, see hooks.cjs). The plan (plan-real.ts) names the arrangement:
//   - `exhaust`: spends the per-minute window of --rate-limited-key, so that the transaction gets 429;
//   - `fault`: arms a simulated 500 or 502 for the transaction's operation through the sandbox's simulation API
//     (--simulation-url, `POST /faults` of spec/sandbox.yaml), disarmed afterwards if it was not taken;
//   - `drain`: sets every ops balance of the account to 0 through the simulation API (`PUT /balances/{type}`),
//     so that an operation that debits one gets 400 INSUFFICIENT_BALANCE, and sets them back afterwards;
//   - `card-balance`: a withdrawal of the card's whole balance (5 USD must remain), for 400 card_balance_too_low.
// When the state cannot be brought about, `arrange` says why, and the hooks skip the transaction unsent.
import { call, dataOf, join, sleep } from './http.ts';
import { simulate } from './simulation.ts';
import type { Arrangement, ConformanceConfig, DreddTransaction } from './types.ts';

/** What `restore` must undo, by transaction id. */
const undo = new Map<string, () => Promise<void>>();

/** Brings about the state the transaction needs; returns why it could not (the transaction is then skipped) or undefined. */
export async function arrange(config: ConformanceConfig, t: DreddTransaction, arrangement: Arrangement): Promise<string | undefined> {
  switch (arrangement.kind) {
    case 'exhaust': {
      // Spend the key's window until a request is refused with at least 3 s of the window left (else wait for the
      // next window), so that the transaction, sent at once, falls in a window with no request left.
      const key = config.rateLimitedKey!;
      for (let attempt = 0; attempt < 5; attempt++) {
        const probe = await call(join(config.server, arrangement.probePath), key);
        const retryAfter = Number(probe.headers.get('retry-after'));
        if (probe.status === 429 && retryAfter >= 3) return undefined;
        if (probe.status === 429) await sleep(retryAfter * 1000 + 100);
      }
      return `set-up: --rate-limited-key was never refused with 429 in 5 requests to GET ${arrangement.probePath}`;
    }
    case 'fault': {
      const armed = await simulate(config, 'POST', '/faults', { operation_id: arrangement.operationId, status: arrangement.status });
      undo.set(t.id, async () => {
        await simulate(config, 'DELETE', '/faults');
      });
      return armed.status === 200
        ? undefined
        : `set-up: POST ${config.simulationUrl}/faults answered ${armed.status}: ${JSON.stringify(armed.body)}`;
    }
    case 'drain': {
      const listed = await call(join(config.server, '/balance'), config.apiKey);
      const balances = dataOf(listed);
      if (!Array.isArray(balances)) return `set-up: GET /balance answered ${listed.status}`;
      const held = balances.filter(
        (b): b is { type: string; balance: number } => typeof b?.type === 'string' && typeof b?.balance === 'number',
      );
      const set = (type: string, balance: number) => simulate(config, 'PUT', `/balances/${encodeURIComponent(type)}`, { balance });
      undo.set(t.id, async () => {
        for (const b of held) await set(b.type, b.balance);
      });
      for (const b of held) {
        const answer = await set(b.type, 0);
        if (answer.status !== 200) return `set-up: PUT ${config.simulationUrl}/balances/${b.type} answered ${answer.status}`;
      }
      return undefined;
    }
    case 'card-balance': {
      const card = dataOf(await call(join(config.server, arrangement.cardPath), config.apiKey)) as { balance?: unknown } | undefined;
      if (typeof card?.balance !== 'number') return `set-up: GET ${arrangement.cardPath} gave no card balance`;
      const body = JSON.parse(t.request.body || '{}') as Record<string, unknown>;
      body.amount = Math.max(5, card.balance);
      t.request.body = JSON.stringify(body);
      return undefined;
    }
  }
}

/** Undoes what `arrange` did for the transaction (balances set back, faults not taken disarmed). */
export async function restore(t: DreddTransaction): Promise<void> {
  const fn = undo.get(t.id);
  undo.delete(t.id);
  await fn?.();
}
