// npm start: build the contract, build the docs site, then serve both on 127.0.0.1 until Ctrl-C:
//   the mock API of generated/openapi.json     --mock-port <n> or MOCK_PORT (default 4010), at /v1 and /api/v1
//   the rendered docs (site/)                   --docs-port <n> or DOCS_PORT (default 8080)
//   --skip-build                                serve what generated/ and site/ hold (no build step)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { choosePort, DEFAULT_DOCS_PORT, DEFAULT_MOCK_PORT, HOST, MOCK_SPEC, mockBanner, onShutdown, shuttingDown } from '../lib/dev-servers.ts';
import { buildSite, SITE_DIR } from '../docs/site.ts';
import { ROOT } from '../lib/paths.ts';
import { parseCli, reportCliError } from '../lib/cli-args.ts';
import { assertPortFree } from '../lib/port-check.ts';
import { startMock, type MockServer } from '../mock/server.ts';
import { serveStatic } from '../docs/static-site.ts';

function npmRunBuild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`npm run build failed (${code ?? signal}); nothing was started`)),
    );
  });
}

let prism: MockServer | undefined;
let docs: Server | undefined;

async function stopAll(): Promise<void> {
  await Promise.all([
    prism?.stop(),
    docs && new Promise<void>((resolve) => {
      docs!.closeAllConnections();
      docs!.close(() => resolve());
    }),
  ]);
}

const USAGE = `Usage: npm start [-- --mock-port <n>] [--docs-port <n>] [--skip-build]
  --mock-port <n>  the Prism mock's port on 127.0.0.1 (or MOCK_PORT; default ${DEFAULT_MOCK_PORT})
  --docs-port <n>  the docs site's port on 127.0.0.1 (or DOCS_PORT; default ${DEFAULT_DOCS_PORT})
  --skip-build     serve what generated/ and site/ hold (no build step)`;

try {
  const args = parseCli(process.argv.slice(2), {
    usage: USAGE,
    options: { 'mock-port': { type: 'string' }, 'docs-port': { type: 'string' }, 'skip-build': { type: 'boolean' } },
  });
  if (!args) process.exit(0);
  const { values } = args;
  const mockPort = choosePort(values['mock-port'], 'mock-port', 'MOCK_PORT', DEFAULT_MOCK_PORT);
  const docsPort = choosePort(values['docs-port'], 'docs-port', 'DOCS_PORT', DEFAULT_DOCS_PORT);
  if (mockPort === docsPort) throw new Error(`the mock and the docs cannot share port ${mockPort}; set MOCK_PORT or DOCS_PORT`);
  // Check the ports first: a clash is reported before the build, not after.
  await assertPortFree(HOST, mockPort, 'set MOCK_PORT=<port> or pass --mock-port <port> to use another one');
  await assertPortFree(HOST, docsPort, 'set DOCS_PORT=<port> or pass --docs-port <port> to use another one');

  if (!values['skip-build']) {
    await npmRunBuild();
    const site = await buildSite();
    for (const missing of site.missingGuides) console.warn(`warning: docs/${missing} is missing from the site`);
    console.log(`Docs site built in ${site.seconds.toFixed(1)} s`);
  }
  if (!fs.existsSync(MOCK_SPEC)) throw new Error(`${path.relative(ROOT, MOCK_SPEC)} is missing: run without --skip-build`);
  if (!fs.existsSync(path.join(SITE_DIR, 'index.html'))) throw new Error('site/index.html is missing: run without --skip-build');

  onShutdown(stopAll);
  [prism, docs] = await Promise.all([
    startMock({ spec: MOCK_SPEC, port: mockPort, host: HOST, output: 'inherit' }),
    serveStatic(SITE_DIR, HOST, docsPort),
  ]);
  console.log(
    [
      '',
      mockBanner(MOCK_SPEC, prism),
      '',
      `Docs              http://${HOST}:${docsPort}/   (API reference and guides; events: /asyncapi.html)`,
      '',
      'Press Ctrl-C to stop both.',
      '',
    ].join('\n'),
  );
  const code = await prism.exited;
  if (shuttingDown()) await new Promise(() => {}); // the signal handler exits
  console.error(`Prism exited unexpectedly (${code}); stopping the docs server.`);
  await stopAll();
  process.exit(1);
} catch (error) {
  const code = reportCliError('start', USAGE, error);
  await stopAll();
  process.exit(code);
}
