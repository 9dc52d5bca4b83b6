// `npm run conformance:mock`: starts the mock API of the bundle on a free 127.0.0.1 port (with the
// project's mock start code, scripts/mock/server.ts: Prism behind a front at /v1 and /api/v1), runs the
// conformance suite against it in mock mode, and stops it. Other arguments go to the suite (e.g. --spec <file>, --verbose).
import path from 'node:path';
import { findFreePort } from '../lib/port-check.ts';
import { ROOT } from '../lib/paths.ts';
import { startMock } from '../mock/server.ts';
import { main } from './run.ts';

const args = process.argv.slice(2);
const specAt = args.indexOf('--spec');
const spec = path.resolve(
  specAt >= 0 ? (args[specAt + 1] ?? '') : (process.env.CONFORMANCE_SPEC ?? path.join(ROOT, 'generated', 'openapi.json')),
);
const rest = specAt >= 0 ? args.filter((_, i) => i !== specAt && i !== specAt + 1) : args;

const mock = await startMock({ spec, port: await findFreePort('127.0.0.1'), output: 'ignore' });
console.log(`Mock of ${path.relative(ROOT, spec) || spec} at ${mock.baseUrl} (gift cards at ${mock.giftCardBaseUrl})`);
let code = 1;
try {
  code = await main([
    '--server', mock.baseUrl, '--alt-server', mock.giftCardBaseUrl, '--api-key', 'sk_test_conformance', '--mock', '--spec', spec, ...rest,
  ]);
} finally {
  await mock.stop();
}
// exitCode, not exit(): exit() would cut the report short when stdout is a pipe.
process.exitCode = code;
