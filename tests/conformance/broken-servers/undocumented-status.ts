// Broken: POST /cards/{code}/freeze answers 201 Created, a status the contract does not document for it.
import { serveFromCommandLine, type Mutation } from './example-server.ts';

export const problem = { operation: 'POST /cards/{code}/freeze', pointer: 'status', message: 'status 201 is not documented' };

export const mutate: Mutation = ({ method, path, answer }) => {
  if (method !== 'POST' || path !== '/cards/{code}/freeze' || answer.status !== 200) return answer;
  return { ...answer, status: 201 };
};

if (import.meta.main) await serveFromCommandLine(mutate, 'undocumented-status');
