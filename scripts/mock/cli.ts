// npm run mock: the mock API (Prism behind scripts/mock/server.ts) of generated/openapi.json on 127.0.0.1, at
// /v1 and /api/v1 (no build, no docs; `npm start` does all).
//   --port <n>     or MOCK_PORT (default 4010)
//   --spec <file>  another OpenAPI bundle (default generated/openapi.json)
import fs from 'node:fs';
import path from 'node:path';
import { choosePort, DEFAULT_MOCK_PORT, HOST, MOCK_SPEC, mockBanner, onShutdown, shuttingDown } from '../lib/dev-servers.ts';
import { parseCli, reportCliError } from '../lib/cli-parser.ts';
import { assertPortFree } from '../lib/port-check.ts';
import { startMock } from './server.ts';

const USAGE = `Usage: npm run mock [-- --port <n>] [--spec <file>]
  --port <n>     the port on 127.0.0.1 (or MOCK_PORT; default ${DEFAULT_MOCK_PORT})
  --spec <file>  the OpenAPI bundle to mock (default generated/openapi.json)`;

try {
  const args = parseCli(process.argv.slice(2), { usage: USAGE, options: { port: { type: 'string' }, spec: { type: 'string' } } });
  if (!args) process.exit(0);
  const { values } = args;
  const port = choosePort(values.port, 'port', 'MOCK_PORT', DEFAULT_MOCK_PORT);
  const spec = values.spec ? path.resolve(values.spec) : MOCK_SPEC;
  if (!fs.existsSync(spec)) throw new Error(`${spec} is missing: run \`npm run build\` first`);
  await assertPortFree(HOST, port, 'set MOCK_PORT=<port> or pass --port <port> to use another one');

  const mock = await startMock({ spec, port, host: HOST, output: 'inherit' });
  onShutdown(() => mock.stop());
  console.log(`${mockBanner(spec, mock)}\n\nPress Ctrl-C to stop.`);
  const code = await mock.exited;
  if (shuttingDown()) await new Promise(() => {}); // the signal handler exits
  console.error(`Prism exited unexpectedly (${code}).`);
  process.exit(1);
} catch (error) {
  process.exit(reportCliError('mock', USAGE, error));
}
