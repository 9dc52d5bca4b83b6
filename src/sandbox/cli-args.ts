// The command line of the sandbox: its flags, checked. (src/sandbox/cli.ts runs it.)
import { parseArgs } from 'node:util';
import { API_KEY_RULE, apiKeyMode } from '../client/api-key.js';

export const USAGE =
  'usage: sandbox [--port 4020] [--host 127.0.0.1] [--db FILE] [--seed examples [--seed-key KEY]] [--config FILE] [--manual] [--no-rate-limit]';

export function parseCli(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string', default: '4020' },
      host: { type: 'string', default: '127.0.0.1' },
      db: { type: 'string' },
      seed: { type: 'string' },
      'seed-key': { type: 'string', default: 'sk_test_sandbox' },
      config: { type: 'string' },
      manual: { type: 'boolean', default: false },
      'no-rate-limit': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  if (values.seed !== undefined && values.seed !== 'examples') throw new Error(`--seed accepts only "examples", got "${values.seed}"`);
  if (apiKeyMode(values['seed-key']) === undefined) throw new Error(`--seed-key must be an API key, ${API_KEY_RULE}, got "${values['seed-key']}"`);
  return { ...values, port };
}
