// Broken: GET /payouts lists a payout whose status is not one of the documented values.
import { copy, serveFromCommandLine, type Mutation } from './example-server.ts';

export const problem = { operation: 'GET /payouts', pointer: '/data/0/status', message: 'must be one of' };

export const mutate: Mutation = ({ method, path, answer }) => {
  if (method !== 'GET' || path !== '/payouts' || answer.status !== 200) return answer;
  const body = copy(answer.body) as { data: { status: string }[] };
  body.data[0]!.status = 'on_hold';
  return { ...answer, body };
};

if (import.meta.main) await serveFromCommandLine(mutate, 'unknown-enum');
