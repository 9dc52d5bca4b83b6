// A copy of the sandbox (behind sandbox-proxy.ts) whose simulation API answers one operation with a field of
// the wrong type, while the partner API and every other answer stay as they are; and what the suite's check
// of the simulation API's answers (scripts/conformance/simulation.ts) must report.
import type { Rewrite } from './sandbox-proxy.ts';

export const SIMULATION_MUTANT = {
  name: 'answers PUT /sandbox/balances/{type} with the balance as a string ("1000.00", the contract\'s number)',
  rewrite: ((req) =>
    req.method === 'PUT' && /^\/sandbox\/balances\/[^/?]+$/.test(req.url)
      ? {
          forward: req,
          reshape: (body) => {
            const answer = body as { data?: { balance?: unknown } };
            if (answer.data && typeof answer.data.balance === 'number') answer.data.balance = answer.data.balance.toFixed(2);
            return answer;
          },
        }
      : { forward: req }) as Rewrite,
  caught: { name: 'PUT /balances/{type}', problem: '/data/balance: must be number' },
};
