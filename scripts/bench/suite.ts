// npm run bench:suite [-- --files 20] [--runs 3]
// What a partner's vitest suite pays for its sandbox: a suite of `--files` test files, generated in a temporary
// folder that uses the package's compiled code (dist/, built here first with `npm run build:lib`; the folder's
// node_modules link the package and vitest from this repository), run three ways in the same run:
//   (a) each file starts its own sandbox (beforeAll/afterAll), with its own key;
//   (b) one sandbox for the suite, started by a globalSetup and given to the files with provide/inject
//       (docs/testing.md, "One sandbox for a whole suite"), each file with its own key;
//   (c) the same files without any sandbox: vitest's own cost for the suite.
// Each file makes the same requests in (a) and (b) (a webhook receiver of the test kit registered, a customer
// created, the customers and the balances listed);
// in (c) it imports the client and checks nothing over the network. The three run in turn `--runs` times, so that
// a change of load weighs on each alike; prints each wall time, their medians, the ratios (a)/(c) and (b)/(c) of
// the medians, and the load average.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCli, reportCliError, UsageError } from '../lib/cli-parser.ts';
import { ROOT } from '../lib/paths.ts';

const USAGE = `Usage: npm run bench:suite [-- --files <n>] [--runs <n>]
  --files <n>  test files in the suite (default 20)
  --runs <n>   runs of each way, in turn (default 3)`;

function options(): { files: number; runs: number } | null {
  try {
    const args = parseCli(process.argv.slice(2), {
      usage: USAGE,
      options: { files: { type: 'string', default: '20' }, runs: { type: 'string', default: '3' } },
    });
    if (!args) return null;
    const { files = '20', runs = '3' } = args.values;
    for (const [name, value] of [
      ['files', files],
      ['runs', runs],
    ] as const) {
      if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--${name} must be a positive whole number, got "${value}"`);
    }
    return { files: Number(files), runs: Number(runs) };
  } catch (error) {
    process.exit(reportCliError('bench:suite', USAGE, error));
  }
}

const picked = options();
if (picked === null) process.exit(0);
const count = picked.files;
const PACKAGE = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string }).name;

/** The requests of one file, on `client` (the same in (a) and (b)). */
const requests = (n: number) => `
  const receiver = await startWebhookReceiver();
  await receiver.register(client);
  const created = await client.call.POST('/customers', {
    body: { external_reference: 'cust-${n}', first_name: 'Amina', last_name: 'Diallo', date_of_birth: '1990-04-17' },
  });
  const customers = await client.call.GET('/customers');
  expect(customers.data.map((c) => c.customer_code)).toEqual([created.data.customer_code]);
  const balances = await client.call.GET('/balance');
  expect(balances.data.length).toBeGreaterThan(0);
  await receiver.close();`;

const WAYS = {
  own: {
    title: '(a) a sandbox per file',
    config: `export default { test: { include: ['own/*.test.ts'] } };`,
    file: (n: number) => `import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPartnerClient, type PartnerClient } from '${PACKAGE}';
import { startSandbox, type RunningSandbox } from '${PACKAGE}/sandbox';
import { startWebhookReceiver } from '${PACKAGE}/testing';

let sandbox: RunningSandbox;
let client: PartnerClient;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  client = createPartnerClient({ apiKey: 'sk_test_file_${n}', baseUrl: sandbox.baseUrl, retry: false });
});
afterAll(() => sandbox?.close());

it('file ${n}', async () => {${requests(n)}
});
`,
  },
  shared: {
    title: '(b) one sandbox for the suite (globalSetup)',
    config: `export default { test: { include: ['shared/*.test.ts'], globalSetup: ['shared/sandbox.global.ts'] } };`,
    file: (n: number) => `import { expect, inject, it } from 'vitest';
import { createPartnerClient } from '${PACKAGE}';
import { startWebhookReceiver } from '${PACKAGE}/testing';

const client = createPartnerClient({ apiKey: 'sk_test_file_${n}', baseUrl: \`\${inject('sandboxUrl')}/v1\`, retry: false });

it('file ${n}', async () => {${requests(n)}
});
`,
  },
  none: {
    title: '(c) no sandbox',
    config: `export default { test: { include: ['none/*.test.ts'] } };`,
    file: (n: number) => `import { expect, it } from 'vitest';
import { createPartnerClient } from '${PACKAGE}';

const client = createPartnerClient({ apiKey: 'sk_test_file_${n}', baseUrl: 'http://127.0.0.1:9/v1', retry: false });

it('file ${n}', () => {
  expect(typeof client.call.GET).toBe('function');
});
`,
  },
} as const;

const GLOBAL_SETUP = `import type { TestProject } from 'vitest/node';
import { startSandbox } from '${PACKAGE}/sandbox';

declare module 'vitest' {
  export interface ProvidedContext {
    sandboxUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const sandbox = await startSandbox({ port: 0 });
  project.provide('sandboxUrl', sandbox.url);
  return () => sandbox.close();
}
`;

execFileSync('npm', ['run', '--silent', 'build:lib'], { cwd: ROOT, stdio: 'inherit' });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-suite-'));
try {
  // The package and vitest as a partner's project has them, linked: the package's own dependencies resolve
  // from this repository's node_modules.
  const link = (name: string, target: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, 'node_modules', name)), { recursive: true });
    fs.symlinkSync(target, path.join(dir, 'node_modules', name), 'dir');
  };
  link(PACKAGE, ROOT);
  link('vitest', path.join(ROOT, 'node_modules', 'vitest'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'partner-suite', type: 'module', private: true }));
  for (const [way, { config, file }] of Object.entries(WAYS)) {
    fs.mkdirSync(path.join(dir, way));
    fs.writeFileSync(path.join(dir, `vitest.${way}.config.ts`), `${config}\n`);
    for (let n = 1; n <= count; n++) fs.writeFileSync(path.join(dir, way, `file-${String(n).padStart(2, '0')}.test.ts`), file(n));
  }
  fs.writeFileSync(path.join(dir, 'shared', 'sandbox.global.ts'), GLOBAL_SETUP);

  const load = () => os.loadavg()[0]!.toFixed(2);
  console.log(`a ${count}-file vitest suite in ${dir}; load average (1 min) at start: ${load()}; ${os.cpus().length} shared cores`);
  const vitest = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const ways = Object.keys(WAYS) as (keyof typeof WAYS)[];
  const wall: Record<string, number[]> = Object.fromEntries(ways.map((way) => [way, []]));
  for (let run = 1; run <= picked.runs; run++) {
    for (const way of ways) {
      const t0 = performance.now();
      const ran = spawnSync(process.execPath, [vitest, 'run', '--config', `vitest.${way}.config.ts`], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', CI: '1' },
      });
      const elapsed = performance.now() - t0;
      const output = `${ran.stdout}${ran.stderr}`;
      if (ran.status !== 0 || !new RegExp(`Tests\\s+${count} passed`).test(output)) {
        throw new Error(`${WAYS[way].title} failed (exit ${ran.status}):\n${output.slice(-3000)}`);
      }
      wall[way]!.push(elapsed);
      console.log(`  run ${run}, ${WAYS[way].title}: ${(elapsed / 1000).toFixed(2)} s (load average ${load()})`);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const [own, shared, none] = ways.map((way) => median(wall[way]!)) as [number, number, number];
  console.log(`medians of ${picked.runs}:`);
  for (const way of ways) console.log(`  ${WAYS[way].title}: ${(median(wall[way]!) / 1000).toFixed(2)} s`);
  console.log(`  (a) / (c): ${(own / none).toFixed(2)}x; (b) / (c): ${(shared / none).toFixed(2)}x; load average at end ${load()}`);
} catch (error) {
  console.error(`bench:suite: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
