// A copy of the sandbox (behind sandbox-proxy.ts) that fails on valid but unusual input: it answers 500 to a
// new customer whose body holds a character beyond ASCII (a name like "Zoë"), which the contract allows; and
// what the valid-input check (scripts/conformance/checks/valid.ts) must report.
import type { Rewrite } from './sandbox-proxy.ts';

export const VALID_MUTANT = {
  name: 'answers 500 to a new customer whose body holds a character beyond ASCII',
  operations: ['createCustomer'],
  rewrite: ((req) =>
    req.method === 'POST' && req.url === '/v1/customers' && [...req.body].some((c) => c.charCodeAt(0) > 0x7f)
      ? { answer: { status: 500, body: { success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal error.', details: {} } } } }
      : { forward: req }) as Rewrite,
  caught: { group: 'valid input', name: 'POST /customers', problem: 'answered 500 to a valid request, expected a documented 2xx or 4xx' },
};
