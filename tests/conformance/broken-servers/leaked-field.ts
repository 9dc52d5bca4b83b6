// Leaky, not broken: GET /cards/{code} answers with a field the contract does not document. Responses are
// open (docs/compatibility.md), so the run passes; the report warns about the field.
import { copy, serveFromCommandLine, type Mutation } from './example-server.ts';

export const problem = { operation: 'GET /cards/{code}', status: 200, pointer: '/data/internal_risk_score' };

export const mutate: Mutation = ({ method, path, answer }) => {
  if (method !== 'GET' || path !== '/cards/{code}' || answer.status !== 200) return answer;
  const body = copy(answer.body) as { data: Record<string, unknown> };
  body.data.internal_risk_score = 42;
  return { ...answer, body };
};

if (import.meta.main) await serveFromCommandLine(mutate, 'leaked-field');
