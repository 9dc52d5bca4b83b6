// Broken: GET /cards/{code} answers 404 with a framework's default error body instead of the failure envelope.
import { serveFromCommandLine, type Mutation } from './example-server.ts';

export const problem = { operation: 'GET /cards/{code}', pointer: '/success', message: 'failure envelope' };

export const mutate: Mutation = ({ method, path, answer }) => {
  if (method !== 'GET' || path !== '/cards/{code}' || answer.status !== 404) return answer;
  return { ...answer, body: { statusCode: 404, error: 'Not Found', message: 'Card not found' } };
};

if (import.meta.main) await serveFromCommandLine(mutate, 'error-outside-envelope');
