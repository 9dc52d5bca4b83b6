// Broken: GET /cards/{code} answers the card balance as a string ("75.00") instead of a number.
import { copy, serveFromCommandLine, type Mutation } from './example-server.ts';

export const problem = { operation: 'GET /cards/{code}', pointer: '/data/balance', message: 'must be number' };

export const mutate: Mutation = ({ method, path, answer }) => {
  if (method !== 'GET' || path !== '/cards/{code}' || answer.status !== 200) return answer;
  const body = copy(answer.body) as { data: { balance: unknown } };
  body.data.balance = `${body.data.balance}.00`;
  return { ...answer, body };
};

if (import.meta.main) await serveFromCommandLine(mutate, 'wrong-type');
