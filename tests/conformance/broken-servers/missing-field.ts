// Broken: POST /cards/{code}/withdraw answers without the required `net_amount`.
import { copy, serveFromCommandLine, type Mutation } from './example-server.ts';

export const problem = { operation: 'POST /cards/{code}/withdraw', pointer: '/data/net_amount', message: 'is required but missing' };

export const mutate: Mutation = ({ method, path, answer }) => {
  if (method !== 'POST' || path !== '/cards/{code}/withdraw' || answer.status !== 200) return answer;
  const body = copy(answer.body) as { data: Record<string, unknown> };
  delete body.data.net_amount;
  return { ...answer, body };
};

if (import.meta.main) await serveFromCommandLine(mutate, 'missing-field');
