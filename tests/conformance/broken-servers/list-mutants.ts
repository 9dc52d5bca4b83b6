// Copies of the sandbox (behind sandbox-proxy.ts) whose lists break one rule while every answer stays
// well-shaped against the contract, and what the failure the list checks (scripts/conformance/checks/lists.ts)
// report names.
import type { Rewrite } from './sandbox-proxy.ts';

export interface ListMutant {
  name: string;
  /** The check that must catch it (--checks). */
  check: 'pagination' | 'filters';
  rewrite: Rewrite;
  /** The failure expected: its group, a part of its name, and what its problem (the message before the answer) says. */
  caught: { group: string; name: string; problem: RegExp };
}

const cardList = (req: { method: string; url: string }) => req.method === 'GET' && /^\/v1\/cards(\?|$)/.test(req.url);

interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

/** Changes the pagination object of a list answer. */
const reshapePagination = (change: (p: Pagination) => Pagination) => (body: unknown) => {
  const answer = body as { pagination?: Pagination };
  if (answer.pagination) answer.pagination = change(answer.pagination);
  return answer;
};

export const LIST_MUTANTS: ListMutant[] = [
  {
    name: 'counts one card more in pagination.total than its pages hold, pages left as they are',
    check: 'pagination',
    rewrite: (req) =>
      cardList(req) ? { forward: req, reshape: reshapePagination((p) => ({ ...p, total: p.total + 1 })) } : { forward: req },
    // Which rule shows it depends on the number of cards: pages no longer ceil(total / limit), or the last page short.
    caught: { group: 'pagination', name: 'GET /cards', problem: /expected ceil\(total \/ limit\)|holds \d+ items, expected/ },
  },
  {
    // Its pages agree with its total: only the items show the lie.
    name: 'counts one card more in pagination.total and pages than it lists',
    check: 'pagination',
    rewrite: (req) =>
      cardList(req)
        ? {
            forward: req,
            reshape: reshapePagination((p) => ({ ...p, total: p.total + 1, pages: Math.ceil((p.total + 1) / p.limit) })),
          }
        : { forward: req },
    caught: { group: 'pagination', name: 'GET /cards', problem: /holds \d+ items, expected|the pages hold \d+ items together/ },
  },
  {
    name: "ignores the customer_code filter of GET /cards (and lists other customers' cards)",
    check: 'filters',
    rewrite: (req) => {
      if (!cardList(req)) return { forward: req };
      const url = new URL(req.url, 'http://proxy');
      url.searchParams.delete('customer_code');
      return { forward: { ...req, url: `${url.pathname}${url.search}` } };
    },
    caught: { group: 'list filter', name: 'GET /cards customer_code', problem: /^item \S+ has customer_code "[^"]+", filtered by / },
  },
];
