// npm start: build the contract, build the docs site, then serve on 127.0.0.1 until Ctrl-C:
//   the sandbox (stateful, docs/sandbox.md)     --sandbox-port <n> or SANDBOX_PORT (default 4020), at /v1, /api/v1, /sandbox
//   the mock API of generated/openapi.json     --mock-port <n> or MOCK_PORT (default 4010), at /v1 and /api/v1
//   the rendered docs (site/)                   --docs-port <n> or DOCS_PORT (default 8080)
//   --skip-build                                serve what generated/ and site/ hold (no build step)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import {
  choosePort,
  DEFAULT_DOCS_PORT,
  DEFAULT_MOCK_PORT,
  HOST,
  MOCK_SPEC,
  mockBanner,
  onShutdown,
  shuttingDown,
} from '../lib/dev-servers.ts';
import { buildSite, SITE_DIR } from '../docs/site.ts';
import { GIFT_CARD_SERVER } from '../../src/contract/servers.ts';
import { ROOT } from '../lib/paths.ts';
import { parseCli, reportCliError } from '../lib/cli-parser.ts';
import { assertPortFree } from '../lib/port-check.ts';
import { DEFAULT_SANDBOX_PORT, startSandboxProcess, type SandboxProcess } from '../lib/sandbox-process.ts';
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
let sandbox: SandboxProcess | undefined;

/**
 * The key `npm start` suggests. Its account holds the contract's example records (`--seed examples`), so the
 * curl and TypeScript samples of the reference, which use this key and the examples' codes, work as pasted.
 * Any other well-formed test key gets its own funded, empty account.
 */
const START_KEY = 'sk_test_sandbox';

async function stopAll(): Promise<void> {
  await Promise.all([
    prism?.stop(),
    sandbox?.stop(),
    docs &&
      new Promise<void>((resolve) => {
        docs!.closeAllConnections();
        docs!.close(() => resolve());
      }),
  ]);
}

/** The reference's address, pointing its Try it console at the sandbox when it is not on the default port. */
function tryItPage(docsPort: number, running: SandboxProcess): string {
  const page = `http://${HOST}:${docsPort}/reference/`;
  return new URL(running.url).port === String(DEFAULT_SANDBOX_PORT) ? page : `${page}?sandbox=${running.url}`;
}

const USAGE = `Usage: npm start [-- --sandbox-port <n>] [--mock-port <n>] [--docs-port <n>] [--skip-build]
  --sandbox-port <n>  the sandbox's port on 127.0.0.1 (or SANDBOX_PORT; default ${DEFAULT_SANDBOX_PORT})
  --mock-port <n>  the Prism mock's port on 127.0.0.1 (or MOCK_PORT; default ${DEFAULT_MOCK_PORT})
  --docs-port <n>  the docs site's port on 127.0.0.1 (or DOCS_PORT; default ${DEFAULT_DOCS_PORT})
  --skip-build     serve what generated/ and site/ hold (no build step)`;

try {
  const args = parseCli(process.argv.slice(2), {
    usage: USAGE,
    options: {
      'sandbox-port': { type: 'string' },
      'mock-port': { type: 'string' },
      'docs-port': { type: 'string' },
      'skip-build': { type: 'boolean' },
    },
  });
  if (!args) process.exit(0);
  const { values } = args;
  const mockPort = choosePort(values['mock-port'], 'mock-port', 'MOCK_PORT', DEFAULT_MOCK_PORT);
  const docsPort = choosePort(values['docs-port'], 'docs-port', 'DOCS_PORT', DEFAULT_DOCS_PORT);
  const sandboxPort = choosePort(values['sandbox-port'], 'sandbox-port', 'SANDBOX_PORT', DEFAULT_SANDBOX_PORT);
  if (new Set([mockPort, docsPort, sandboxPort]).size < 3) {
    throw new Error(
      `the sandbox (${sandboxPort}), the mock (${mockPort}) and the docs (${docsPort}) need three ports; set SANDBOX_PORT, MOCK_PORT or DOCS_PORT`,
    );
  }
  // Check the ports first: a clash is reported before the build, not after.
  await assertPortFree(HOST, mockPort, 'set MOCK_PORT=<port> or pass --mock-port <port> to use another one');
  await assertPortFree(HOST, docsPort, 'set DOCS_PORT=<port> or pass --docs-port <port> to use another one');
  await assertPortFree(HOST, sandboxPort, 'set SANDBOX_PORT=<port> or pass --sandbox-port <port> to use another one');

  if (!values['skip-build']) {
    await npmRunBuild();
    const site = await buildSite();
    for (const missing of site.missingGuides) console.warn(`warning: docs/${missing} is missing from the site`);
    console.log(`Docs site built in ${site.seconds.toFixed(1)} s`);
  }
  if (!fs.existsSync(MOCK_SPEC)) throw new Error(`${path.relative(ROOT, MOCK_SPEC)} is missing: run without --skip-build`);
  if (!fs.existsSync(path.join(SITE_DIR, 'index.html'))) throw new Error('site/index.html is missing: run without --skip-build');

  onShutdown(stopAll);
  // Settled, not all: when one server fails, the others may already listen, and each must be kept to be stopped.
  const started = await Promise.allSettled([
    startMock({ spec: MOCK_SPEC, port: mockPort, host: HOST, output: 'inherit' }),
    serveStatic(SITE_DIR, HOST, docsPort),
    startSandboxProcess({ port: sandboxPort, host: HOST, args: ['--seed', 'examples', '--seed-key', START_KEY] }),
  ]);
  const [mockStart, docsStart, sandboxStart] = started;
  if (mockStart.status === 'fulfilled') prism = mockStart.value;
  if (docsStart.status === 'fulfilled') docs = docsStart.value;
  if (sandboxStart.status === 'fulfilled') sandbox = sandboxStart.value;
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  if (!prism || !docs || !sandbox) throw new Error('a server did not start');
  console.log(
    [
      '',
      `Sandbox           ${sandbox.baseUrl}   (stateful: cards, balances, KYC, events; gift cards at ${sandbox.url}${GIFT_CARD_SERVER.path})`,
      `  key to paste    ${START_KEY}   (holds the contract's example records, as the docs' samples expect; any other sk_test_… or sk_live_… key gets its own funded account)`,
      `  simulations     ${sandbox.simulationUrl}   (outcomes and the clock: docs/sandbox.md)`,
      `  Try it:         curl -H 'Authorization: Bearer ${START_KEY}' ${sandbox.baseUrl}/balance`,
      '',
      mockBanner(MOCK_SPEC, prism),
      '',
      `Docs              http://${HOST}:${docsPort}/   (guides; API reference: /reference/; events: /events/)`,
      // The reference's Try it console sends to the sandbox at its default address unless told another one.
      `  Try it buttons  ${tryItPage(docsPort, sandbox)} and /reference/simulation/: each operation, sent to the sandbox (${sandbox.url})`,
      '',
      'Press Ctrl-C to stop all three.',
      '',
    ].join('\n'),
  );
  const [name, code] = await Promise.race([
    prism.exited.then((c) => ['Prism', c] as const),
    sandbox.exited.then((c) => ['The sandbox', c] as const),
  ]);
  if (shuttingDown()) await new Promise(() => {}); // the signal handler exits
  console.error(`${name} exited unexpectedly (${code}); stopping the other servers.`);
  await stopAll();
  process.exit(1);
} catch (error) {
  const code = reportCliError('start', USAGE, error);
  await stopAll();
  process.exit(code);
}
