// Copies of the sandbox (behind sandbox-proxy.ts), each breaking one rule that the negative, security and
// isolation checks must catch, and what the failure they report names.
import type { Rewrite } from './sandbox-proxy.ts';

export const SUITE_KEY = 'sk_test_checks';
export const SECOND_KEY = 'sk_test_checks_second';

export interface SecurityMutant {
  name: string;
  rewrite: Rewrite;
  /** The failure expected: its group, a part of its name and of its message. */
  caught: { group: string; name: string; message: string };
}

const withdrawal = (url: string, method: string) => method === 'POST' && /\/cards\/[^/]+\/withdraw$/.test(url);
const amountOf = (body: string) => {
  try {
    return (JSON.parse(body) as { amount?: unknown }).amount;
  } catch {
    return undefined;
  }
};
const tooSmall = (body: string) => typeof amountOf(body) === 'number' && (amountOf(body) as number) < 5;

export const MUTANTS: SecurityMutant[] = [
  {
    name: 'accepts a withdrawal below the minimum, as the minimum',
    rewrite: (req) =>
      withdrawal(req.url, req.method) && tooSmall(req.body)
        ? { forward: { ...req, body: JSON.stringify({ amount: 5 }) } }
        : { forward: req },
    caught: { group: 'invalid input', name: 'POST /cards/{code}/withdraw body /amount', message: 'expected 422 VALIDATION_ERROR' },
  },
  {
    name: 'refuses a withdrawal below the minimum, but withdraws the minimum first',
    rewrite: (req) =>
      withdrawal(req.url, req.method) && tooSmall(req.body)
        ? {
            first: [
              {
                ...req,
                headers: { ...req.headers, 'idempotency-key': `mutant-${Math.random().toString(36).slice(2)}` },
                body: JSON.stringify({ amount: 5 }),
              },
            ],
            forward: req,
          }
        : { forward: req },
    caught: { group: 'invalid input', name: 'POST /cards/{code}/withdraw body /amount', message: 'changed GET /cards/{code}' },
  },
  {
    name: "answers the second key with the suite key's account",
    rewrite: (req) => ({
      forward:
        req.headers.authorization === `Bearer ${SECOND_KEY}`
          ? { ...req, headers: { ...req.headers, authorization: `Bearer ${SUITE_KEY}` } }
          : req,
    }),
    caught: { group: 'isolation', name: 'GET /cards/{code} with the second key', message: 'answered 200, expected 404 RESOURCE_NOT_FOUND' },
  },
  {
    name: 'accepts the key with the Basic scheme',
    rewrite: (req) => ({
      forward: req.headers.authorization?.startsWith('Basic ')
        ? { ...req, headers: { ...req.headers, authorization: `Bearer ${SUITE_KEY}` } }
        : req,
    }),
    caught: { group: 'authentication', name: 'GET /cards/{code} with Basic instead of Bearer', message: 'answered 200, expected 401' },
  },
  {
    name: 'says a beneficiary is deleted and keeps it',
    rewrite: (req) =>
      req.method === 'DELETE' && /\/payouts\/beneficiaries\/[^/]+$/.test(req.url)
        ? {
            answer: {
              status: 200,
              body: {
                success: true,
                data: { code: req.url.split('/').at(-1), deleted: true },
                meta: { request_id: 'req_0000000000000000', mode: 'test', timestamp: new Date().toISOString() },
              },
            },
          }
        : { forward: req },
    caught: {
      group: 'deleted resource',
      name: 'GET /payouts/beneficiaries/{code} after DELETE',
      message: 'expected 404 RESOURCE_NOT_FOUND',
    },
  },
  {
    // Last: it terminates the card the others use.
    name: 'serves DELETE /cards/{code} as a termination',
    rewrite: (req) =>
      req.method === 'DELETE' && /\/cards\/[^/]+$/.test(req.url)
        ? { forward: { ...req, method: 'POST', url: `${req.url}/terminate`, body: '' } }
        : { forward: req },
    caught: { group: 'wrong method', name: 'DELETE /cards/{code}', message: 'answered 200, expected ' },
  },
];
