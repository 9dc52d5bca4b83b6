// Invalid input: for every operation, requests that break one rule of the contract for one field or
// parameter (violations.ts) must be refused with 422 VALIDATION_ERROR in the envelope (a body that is not
// JSON, or not sent as JSON, with a 4xx), and change nothing (real mode: state.ts reads it back).
import { record, type CheckContext } from './context.ts';
import { expectRefusal } from './refusal.ts';
import { requestOrSkip } from './request.ts';
import { readsFor, type Snapshot } from './state.ts';
import { violations } from './violations.ts';

export const INPUT = 'invalid input';

export async function checkInput(ctx: CheckContext): Promise<void> {
  for (const op of ctx.operations) {
    const subject = `${op.method} ${op.path}`;
    const valid = requestOrSkip(ctx, INPUT, op.method, op.path);
    if (!valid) continue;
    const reads = ctx.config.mode === 'real' ? readsFor(ctx, valid) : [];
    let before: Snapshot | undefined;
    for (const v of violations(ctx, valid)) {
      if (v.skip) {
        record(ctx, { group: INPUT, name: `${subject} ${v.what}`, outcome: 'skipped', message: v.skip });
        continue;
      }
      before = await expectRefusal(ctx, {
        group: INPUT,
        name: `${subject} ${v.what}`,
        request: v.request,
        reads,
        before,
        ...(v.expect ? { expect: v.expect } : {}),
      });
    }
  }
}
