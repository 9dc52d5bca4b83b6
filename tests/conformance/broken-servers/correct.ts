// The example server unchanged: it answers as the contract says, so the suite must pass against it.
import { serveFromCommandLine, type Mutation } from './example-server.ts';

export const mutate: Mutation | undefined = undefined;

if (import.meta.main) await serveFromCommandLine(mutate, 'correct');
