// Copies of the sandbox (behind sandbox-proxy.ts) whose lists break one rule while every answer stays
// well-shaped against the contract, and what the failure the list checks (scripts/conformance/checks/lists.ts,
// order.ts, created.ts) report names. The filter mutants are generated from the bundle: one per documented
// filter of each list, which it ignores.
import fs from 'node:fs';
import path from 'node:path';
import { contractModel } from '../../../src/contract/model.ts';
import { isObject, type Json, type JsonObject } from '../../../scripts/lib/pointer.ts';
import type { CheckName } from '../../../scripts/conformance/checks/index.ts';
import type { Rewrite } from './sandbox-proxy.ts';

export interface ListMutant {
  name: string;
  /** The check that must catch it (--checks). */
  check: CheckName;
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
    name: 'lists the webhook endpoints oldest first (the reverse of the documented order)',
    check: 'order',
    rewrite: (req) =>
      req.method === 'GET' && /^\/v1\/webhooks(\?|$)/.test(req.url)
        ? { forward: req, reshape: (body) => ({ ...(body as JsonObject), data: [...((body as { data: Json[] }).data ?? [])].reverse() }) }
        : { forward: req },
    caught: {
      group: 'list order',
      name: 'GET /webhooks',
      problem:
        /^item \d+ \(\S+\) comes after item \d+ \(\S+\) with created_at .*the contract's order is created_at descending, then code descending/,
    },
  },
  eventuallyReadable(),
  neverListed(),
];

const webhookList = (req: { method: string; url: string }) => req.method === 'GET' && /^\/v1\/webhooks(\?|$)/.test(req.url);
/** The code of a 2xx `POST /v1/webhooks` answer, remembered in `codes`. */
const remember = (codes: Set<string>) => (body: unknown) => {
  const data = (body as { data?: { code?: unknown } }).data;
  if (typeof data?.code === 'string') codes.add(data.code);
  return body;
};

/** A server whose new webhook endpoint is readable only from its second read (an eventually consistent store). */
function eventuallyReadable(): ListMutant {
  const created = new Set<string>();
  const read = new Set<string>();
  return {
    name: 'shows a new webhook endpoint only on its second read',
    check: 'created',
    rewrite: (req) => {
      if (req.method === 'POST' && req.url === '/v1/webhooks') return { forward: req, reshape: remember(created) };
      const code = /^\/v1\/webhooks\/([^/?]+)$/.exec(req.url)?.[1];
      if (req.method === 'GET' && code && created.has(code) && !read.has(code)) {
        read.add(code);
        return {
          answer: {
            status: 404,
            body: { success: false, error: { code: 'RESOURCE_NOT_FOUND', message: 'Webhook endpoint not found.', details: {} } },
          },
        };
      }
      return { forward: req };
    },
    caught: {
      group: 'created record',
      name: 'GET /webhooks/{code} right after POST /webhooks',
      problem: /just created: GET \/webhooks\/\S+ answered 404 .*expected 200/,
    },
  };
}

/** A server that never lists the webhook endpoints made through it (though each one reads). */
function neverListed(): ListMutant {
  const created = new Set<string>();
  return {
    name: 'never lists a new webhook endpoint',
    check: 'created',
    rewrite: (req) => {
      if (req.method === 'POST' && req.url === '/v1/webhooks') return { forward: req, reshape: remember(created) };
      if (!webhookList(req)) return { forward: req };
      return {
        forward: req,
        reshape: (body) => {
          const answer = body as { data?: { code?: string }[] };
          answer.data = answer.data?.filter((item) => !created.has(item.code ?? ''));
          return answer;
        },
      };
    },
    caught: {
      group: 'created record',
      name: 'GET /webhooks right after POST /webhooks',
      problem: /^the webhook endpoint \S+ just created is not listed/,
    },
  };
}

const BUNDLE = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../generated/openapi.json'), 'utf8')) as JsonObject;
/** Query parameters that are not equality filters (as scripts/conformance/checks/lists.ts reads them). */
const NOT_FILTERS = new Set(['page', 'limit', 'created_from', 'created_to']);

/** Every documented filter of every list (a GET answering the PaginatedEnvelope): operationId, path and name. */
export function listFilters(bundle: JsonObject = BUNDLE): { operationId: string; path: string; filter: string }[] {
  const out: { operationId: string; path: string; filter: string }[] = [];
  for (const op of contractModel(bundle).operations.filter((o) => o.method === 'get')) {
    const responses = op.node.responses;
    if (!JSON.stringify(isObject(responses) ? responses['200'] : {}).includes('/PaginatedEnvelope"')) continue;
    for (const param of op.parameters)
      if (param.in === 'query' && !NOT_FILTERS.has(param.name))
        out.push({ operationId: op.operationId, path: op.path, filter: param.name });
  }
  return out;
}

/** A server that ignores one filter of one list (drops it from the query), for every filter of the contract. */
export const FILTER_MUTANTS: (ListMutant & { operationId: string })[] = listFilters().map(({ operationId, path: template, filter }) => {
  const base = template.startsWith('/gift-cards') ? '/api/v1' : '/v1';
  const list = new RegExp(`^${base}${template.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?|$)`);
  return {
    operationId,
    name: `ignores the ${filter} filter of GET ${template}`,
    check: 'filters',
    rewrite: (req) => {
      if (req.method !== 'GET' || !list.test(req.url)) return { forward: req };
      const url = new URL(req.url, 'http://proxy');
      url.searchParams.delete(filter);
      return { forward: { ...req, url: `${url.pathname}${url.search}` } };
    },
    caught: {
      group: 'list filter',
      name: `GET ${template} ${filter}=`,
      problem: new RegExp(`^item \\S+ has ${filter} .+, filtered by |^the run's own record \\S+, whose ${filter} is`),
    },
  };
});
