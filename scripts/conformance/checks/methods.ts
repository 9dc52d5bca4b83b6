// Wrong methods: a method the contract does not give a path (PUT /cards/{code}, DELETE /cards ...) is not an
// operation: it must get the contract's answer (`x-refusals.wrong_method`: 405 `RESOURCE_NOT_FOUND` with an
// `Allow` header naming exactly the path's methods) in the envelope, and change nothing.
import type { CheckContext } from './context.ts';
import { expectRefusal } from './refusal.ts';
import { copyRequest, requestOrSkip } from './request.ts';
import { readsFor } from './state.ts';

export const METHODS = 'wrong method';
const TRIED = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export async function checkMethods(ctx: CheckContext): Promise<void> {
  const paths = [...new Set(ctx.operations.map((o) => o.path))];
  const answer = ctx.refusals.wrongMethod;
  for (const path of paths) {
    const documented = ctx.validator
      .operations()
      .filter((o) => o.path === path)
      .map((o) => o.method);
    const valid = requestOrSkip(ctx, METHODS, documented[0]!, path, path);
    if (!valid) continue;
    for (const method of TRIED.filter((m) => !documented.includes(m))) {
      const request = { ...copyRequest(valid), method };
      const reads = ctx.config.mode === 'real' ? readsFor(ctx, { ...request, method: 'DELETE' }) : [];
      if (method === 'GET' || method === 'DELETE') delete request.body;
      else request.body ??= '{}';
      request.headers = request.body === undefined ? {} : { 'Content-Type': 'application/json' };
      await expectRefusal(ctx, {
        group: METHODS,
        name: `${method} ${path} (the path has ${documented.join(', ')})`,
        request,
        reads,
        expect: { status: answer.status, codes: [answer.code] },
        alsoCheck: (reply) => {
          if (!answer.allowHeader) return [];
          const allow = (reply.headers.get('allow') ?? '')
            .split(',')
            .map((m) => m.trim().toUpperCase())
            .filter(Boolean);
          const expected = [...documented].sort();
          return allow.sort().join(',') === expected.join(',')
            ? []
            : [`${answer.status} with Allow: ${allow.join(', ') || '(none)'}, expected ${expected.join(', ')}`];
        },
      });
    }
  }
}
