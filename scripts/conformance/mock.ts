// `npm run conformance:mock`: starts the mock API of the bundle on a free 127.0.0.1 port (with the
// project's mock start code, scripts/mock/server.ts: Prism behind a front at /v1 and /api/v1), runs the
// conformance suite against it in mock mode, and stops it. `--spec <file>`, `--only <operationIds|paths>`
// and `--verbose` go to the suite.
import path from 'node:path';
import { parseCli, runCli } from '../lib/cli-parser.ts';
import { findFreePort } from '../lib/port-check.ts';
import { ROOT } from '../lib/paths.ts';
import { startMock } from '../mock/server.ts';
import { main } from './run.ts';

const USAGE = `Usage: npm run conformance:mock [-- --spec <file>] [--only <operationIds|paths>] [--verbose]
  --spec <file>   the bundled contract to mock and check (default: generated/openapi.json)
  --only <list>   check only these operations: operationIds or paths, comma-separated or repeated
  --verbose       print Dredd's own output`;

await runCli('conformance:mock', USAGE, async () => {
  const args = parseCli(process.argv.slice(2), {
    usage: USAGE,
    options: { spec: { type: 'string' }, only: { type: 'string', multiple: true }, verbose: { type: 'boolean' } },
  });
  if (!args) return 0;
  const spec = path.resolve(args.values.spec ?? process.env.CONFORMANCE_SPEC ?? path.join(ROOT, 'generated', 'openapi.json'));
  const passed = [...(args.values.only ?? []).flatMap((o) => ['--only', o]), ...(args.values.verbose ? ['--verbose'] : [])];
  const mock = await startMock({ spec, port: await findFreePort('127.0.0.1'), output: 'ignore' });
  console.log(`Mock of ${path.relative(ROOT, spec) || spec} at ${mock.baseUrl} (gift cards at ${mock.giftCardBaseUrl})`);
  try {
    return await main([
      '--server',
      mock.baseUrl,
      '--alt-server',
      mock.giftCardBaseUrl,
      '--api-key',
      'sk_test_conformance',
      '--mock',
      '--spec',
      spec,
      ...passed,
    ]);
  } finally {
    await mock.stop();
  }
});
