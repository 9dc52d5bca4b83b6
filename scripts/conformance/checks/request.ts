// A request of the checks, as data that a check changes one part of (a field, a parameter, a header, the key),
// sent with the checks' own HTTP client, and printed as the curl command that replays it (http.ts).
import { randomUUID } from 'node:crypto';
import { isObject, type Json } from '../../lib/pointer.ts';
import { madeRecord } from '../cleanup.ts';
import { firstRequestExample, hasHeaderParam, isGiftCards, isReferenceParam, operationOf, parameters, pathExample } from '../contract.ts';
import { curlOf, sleep } from '../http.ts';
import { checkpoint } from '../interrupt.ts';
import { adjustBody, label, resourceKey, substituteBody } from '../resources.ts';
import { fillTemplate } from '../transaction.ts';
import type { Reply, RequestSpec } from '../types.ts';
import { record, type CheckContext } from './context.ts';

export type { Reply, RequestSpec };

/** A copy of a request, to change one part of. */
export function copyRequest(req: RequestSpec): RequestSpec {
  return { ...req, params: new Map(req.params), query: new URLSearchParams(req.query), headers: { ...req.headers } };
}

/**
 * The operation's request as the contract's examples give it, with the codes set up for the checks' key in
 * its path and body (real mode), or the examples' own (mock mode); a string naming what is missing otherwise.
 */
export function validRequest(ctx: CheckContext, method: string, template: string, key = ctx.config.apiKey): RequestSpec | string {
  const params = new Map<string, string>();
  for (const [, name] of template.matchAll(/\{([^}]+)\}/g)) {
    const example = pathExample(ctx, method, template, name!);
    if (ctx.config.mode === 'mock' || !isReferenceParam(ctx, method, template, name!)) {
      if (example === undefined) return `the path parameter ${name} has no example`;
      params.set(name!, example);
      continue;
    }
    const resource = resourceKey(template, name!);
    const code = ctx.state.resources.get(resource);
    if (!code) return `needs a ${label(resource)}: ${ctx.state.missing.get(resource) ?? 'not set up'}`;
    params.set(name!, code);
  }
  const hasBody = operationOf(ctx, method, template)?.requestBody !== undefined;
  let body: string | undefined;
  if (hasBody) {
    const example = firstRequestExample(ctx, method, template) as Json;
    if (ctx.config.mode === 'real') {
      const missing = substituteBody(ctx.state, example);
      if (missing.length)
        return `the request body needs a ${missing.map(label).join(', ')}: ${missing.map((k) => ctx.state.missing.get(k) ?? 'not set up').join('; ')}`;
      if (isObject(example)) adjustBody(ctx.config, method, template, example);
    }
    body = JSON.stringify(example);
  }
  return {
    method,
    template,
    params,
    query: new URLSearchParams(),
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body,
    key,
  };
}

/** The request's URL: the gift card operations at --alt-server (when given), the others at --server. */
export function urlOf(ctx: CheckContext, req: RequestSpec): string {
  const base = isGiftCards(req.template) && ctx.config.altServer ? ctx.config.altServer : ctx.config.server;
  const q = req.query.toString();
  return `${base.replace(/\/$/, '')}${fillTemplate(req.template, req.params)}${q ? `?${q}` : ''}`;
}

/** The headers sent: the key, a fresh Idempotency-Key where the operation takes one, then the request's own. */
function headersOf(ctx: CheckContext, req: RequestSpec): Record<string, string> {
  const out: Record<string, string> = { Accept: 'application/json' };
  if (req.key !== null) out.Authorization = `Bearer ${req.key}`;
  const documented = ctx.validator.operation(req.method, req.template) !== undefined;
  if (documented && hasHeaderParam(ctx, req.method, req.template, 'Idempotency-Key')) out['Idempotency-Key'] = randomUUID();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const k of Object.keys(out)) if (k.toLowerCase() === name.toLowerCase()) delete out[k];
    if (value !== null) out[name] = value;
  }
  return out;
}

/** Sends a request; a 429 is waited out (its Retry-After, at most twice) so that a rate limit is not taken for an answer. */
export async function send(ctx: CheckContext, req: RequestSpec): Promise<{ reply: Reply; curl: string }> {
  const headers = headersOf(ctx, req);
  const url = urlOf(ctx, req);
  const curl = curlOf(req.method, url, headers, req.body);
  // A run stopped by a signal sends nothing more (interrupt.ts).
  await checkpoint();
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { method: req.method, headers, body: req.body, signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    const retryAfter = Number(res.headers.get('retry-after'));
    if (res.status === 429 && attempt < 2 && retryAfter > 0 && retryAfter <= 61) {
      await sleep(retryAfter * 1000);
      continue;
    }
    // A request the server should have refused, but took, may have made a record: the run removes it afterwards.
    const made =
      req.key && ctx.config.mode === 'real' ? madeRecord(ctx.validator, req.method, req.template, res.status, body, req.key) : undefined;
    if (made) ctx.state.made.push(made);
    return { reply: { status: res.status, headers: res.headers, body }, curl };
  }
}

/** A GET of the suite's key (read-backs, lists). */
export async function read(
  ctx: CheckContext,
  template: string,
  params: Map<string, string>,
  key = ctx.config.apiKey,
  query = new URLSearchParams(),
): Promise<Reply> {
  return (await send(ctx, { method: 'GET', template, params, query, headers: {}, key })).reply;
}

/** The operation's parameters of one location (`query`, `header`, `path`), $refs resolved. */
export function parametersIn(ctx: CheckContext, method: string, template: string, location: string) {
  return parameters(ctx, method, template).filter((p) => p.in === location);
}

/** The operation's request from the examples, or undefined when it cannot be made (a skipped result of `group` says why). */
export function requestOrSkip(
  ctx: CheckContext,
  group: string,
  method: string,
  template: string,
  name = `${method} ${template}`,
): RequestSpec | undefined {
  const request = validRequest(ctx, method, template);
  if (typeof request !== 'string') return request;
  record(ctx, { group, name, outcome: 'skipped', message: request });
  return undefined;
}
