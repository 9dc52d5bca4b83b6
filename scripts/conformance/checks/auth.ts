// Authentication: every operation refuses a request without a valid key with 401 in the envelope (the codes
// its 401 documents), and the refused request changes nothing. The variants: no key; another scheme than
// Bearer; a key in the query string instead of the header; and against a real server, a malformed key and
// --unknown-key (a mock accepts any bearer key).
import type { CheckContext } from './context.ts';
import { expectRefusal } from './refusal.ts';
import { copyRequest, requestOrSkip, type RequestSpec } from './request.ts';
import { readsFor, type Snapshot } from './state.ts';

export const AUTH = 'authentication';

export async function checkAuth(ctx: CheckContext): Promise<void> {
  const { apiKey, unknownKey, mode } = ctx.config;
  const variants: { what: string; codes?: string[]; change(req: RequestSpec): void }[] = [
    { what: 'no key', codes: ['AUTHENTICATION_REQUIRED'], change: (req) => (req.key = null) },
    {
      what: 'Basic instead of Bearer',
      change: (req) => {
        req.key = null;
        req.headers.Authorization = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
      },
    },
    {
      what: 'the key in the query string, none in the header',
      change: (req) => {
        req.key = null;
        req.query.set('api_key', apiKey);
      },
    },
  ];
  if (mode === 'real') {
    variants.push({ what: 'a malformed key (Bearer not-a-key)', change: (req) => (req.key = 'not-a-key') });
    if (unknownKey) variants.push({ what: 'the --unknown-key', codes: ['AUTHENTICATION_FAILED'], change: (req) => (req.key = unknownKey) });
  }
  for (const op of ctx.operations) {
    const subject = `${op.method} ${op.path}`;
    const valid = requestOrSkip(ctx, AUTH, op.method, op.path);
    if (!valid) continue;
    const documented = ctx.validator.errorCodes(op.method, op.path, 401);
    const reads = mode === 'real' ? readsFor(ctx, valid) : [];
    let before: Snapshot | undefined;
    for (const variant of variants) {
      const request = copyRequest(valid);
      variant.change(request);
      const codes = (variant.codes ?? documented).filter((c) => documented.includes(c));
      before = await expectRefusal(ctx, {
        group: AUTH,
        name: `${subject} with ${variant.what}`,
        request,
        expect: { status: 401, codes },
        reads,
        before,
      });
    }
  }
}
