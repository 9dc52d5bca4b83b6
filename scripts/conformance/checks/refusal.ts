// One refusal check: a request the server must refuse, sent; the answer checked (status, envelope, contract,
// error code); what the request must not change read back; one result, with the curl command on failure.
import { record, refusalProblems, type CheckContext } from './context.ts';
import { send, type Reply, type RequestSpec } from './request.ts';
import { differences, snapshot, type Read, type Snapshot } from './state.ts';

export interface Refusal {
  group: string;
  name: string;
  request: RequestSpec;
  /** The status and codes expected; any 4xx in the envelope without one. */
  expect?: { status?: number; codes?: string[] };
  /** What must stay as it was, and the snapshot of it before (taken now when not given). */
  reads?: Read[];
  before?: Snapshot;
  /** The key the reads use (the suite's by default: an isolation check reads its own account back). */
  readKey?: string;
  /** More problems of the answer (a 405 without `Allow` ...). */
  alsoCheck?: (reply: Reply) => string[];
}

/** Sends the request and records the result; returns the snapshot after it (the next check's "before"). */
export async function expectRefusal(ctx: CheckContext, check: Refusal): Promise<Snapshot | undefined> {
  const reads = check.reads ?? [];
  const before = reads.length ? (check.before ?? (await snapshot(ctx, reads, check.readKey))) : undefined;
  let after = before;
  let problems: string[];
  let curl = '';
  try {
    const sent = await send(ctx, check.request);
    curl = sent.curl;
    problems = refusalProblems(ctx, check.request.method, check.request.template, sent.reply, check.expect ?? {});
    if (!problems.length) problems.push(...(check.alsoCheck?.(sent.reply) ?? []));
    if (before) {
      after = await snapshot(ctx, reads, check.readKey);
      const changed = differences(before, after);
      if (changed.length) problems.push(`changed ${changed.join('; ')}`);
    }
  } catch (error) {
    problems = [`no answer: ${(error as Error).message}`];
  }
  record(ctx, {
    group: check.group,
    name: check.name,
    outcome: problems.length ? 'failed' : 'passed',
    ...(problems.length ? { message: problems.join('; '), reproducer: curl } : {}),
  });
  return after;
}
