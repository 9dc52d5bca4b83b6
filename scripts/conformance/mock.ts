// `npm run conformance:mock`: starts the Prism mock of the bundle on a free 127.0.0.1 port (with the
// project's mock start code, scripts/mock/prism.ts), runs the conformance suite against it in mock
// mode, and stops Prism. Other arguments go to the suite (e.g. --spec <file>, --verbose).
import path from 'node:path';
import { findFreePort } from '../lib/port-check.ts';
import { ROOT } from '../lib/paths.ts';
import { startPrism } from '../mock/prism.ts';
import { main } from './run.ts';

const args = process.argv.slice(2);
const specAt = args.indexOf('--spec');
const spec = path.resolve(
  specAt >= 0 ? (args[specAt + 1] ?? '') : (process.env.CONFORMANCE_SPEC ?? path.join(ROOT, 'generated', 'openapi.json')),
);
const rest = specAt >= 0 ? args.filter((_, i) => i !== specAt && i !== specAt + 1) : args;

const prism = await startPrism({ spec, port: await findFreePort('127.0.0.1'), output: 'ignore' });
console.log(`Prism mock of ${path.relative(ROOT, spec) || spec} on ${prism.url}`);
let code = 1;
try {
  code = await main(['--server', prism.url, '--api-key', 'sk_test_conformance', '--mock', '--spec', spec, ...rest]);
} finally {
  await prism.stop();
}
// exitCode, not exit(): exit() would cut the report short when stdout is a pipe.
process.exitCode = code;
