// The package as another repository gets it, packed once: `npm pack` (prepack: `npm run build:lib` and the
// package README in place of the repository's), then `npm install <tarball>` in a new project. In that project:
// type-check consumers with this repository's TypeScript, run them (a client call against a local node:http
// server, a signed webhook verified with the ./webhooks export, the sandbox in-process with the test kit), and
// run the sandbox's bin (help, version, one-line errors, an older Node), the trigger's and the MCP server's (over
// stdio, with the docs the package ships). Dependencies come from the registry (or
// npm's cache). The testing guide's examples, set up and run as the guide prints them on the Node of engines'
// floor and on Node 24, are the package journey's (tests/journeys/package.test.ts).
import type { JsonObject } from '../../src/contract/json.ts';
import { contractModel } from '../../src/contract/model.ts';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BINS,
  FLOOR as FLOOR_VERSION,
  lastJsonLine,
  PACKAGE,
  ROOT,
  SANDBOX_CONSUMER,
  SANDBOX_CONSUMER_RESULT,
  strictTsconfig,
} from './support.ts';

const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const NAME = PACKAGE.name;
const BIN = BINS[0]!;
const FLOOR = FLOOR_VERSION.split('.').slice(0, 2).join('.');

const CONSUMER = `
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPartnerClient, isPartnerApiError, PartnerApiError, type PageItem } from '${NAME}';
import { signWebhook, verifyWebhook } from '${NAME}/webhooks';
import type { components, paths, WebhookEvent } from '${NAME}/types';

type Card = components['schemas']['Card'];
const card: Card = {
  code: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  customer_code: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f',
  product_code: '5d8e1f2a-3b4c-4d5e-8f9a-0b1c2d3e4f5a',
  brand: 'VISA',
  category: 'virtual',
  name_on_card: 'AMINA DIALLO',
  status: 'active',
  balance: 75,
  currency: 'USD',
  last_four: '4242',
  expiry: '03/29',
  fees: { card_fee: 5, service_fee: 1, total_charged: 106 },
  created_at: '2026-03-01T09:00:00Z',
};
const meta = { request_id: 'req_pack_1', mode: 'test', timestamp: '2026-03-02T10:15:30Z' };

const seen: string[] = [];
const server = http.createServer((req, res) => {
  seen.push(\`\${req.method} \${req.url} \${req.headers.authorization}\`);
  const body = req.url?.startsWith('/v1/cards?')
    ? { success: true, data: [card], meta, pagination: { page: 1, limit: 20, total: 1, pages: 1 } }
    : { success: false, error: { code: 'RESOURCE_NOT_FOUND', message: 'Card not found.', details: null }, meta };
  res.writeHead(req.url?.startsWith('/v1/cards?') ? 200 : 404, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

const client = createPartnerClient({ apiKey: 'sk_test_pack', baseUrl: \`http://127.0.0.1:\${port}/v1\` });
const cards: PageItem<'/cards'>[] = [];
for await (const c of client.paginate('/cards', { params: { query: { limit: 20 } } })) cards.push(c);
const first: Card | undefined = cards[0];

let code: string | undefined;
try {
  await client.call.GET('/cards/{code}', { params: { path: { code: card.code } } });
} catch (error) {
  if (isPartnerApiError(error, 'GET', '/cards/{code}')) {
    // The code is narrowed to what GET /cards/{code} documents.
    // @ts-expect-error GET /cards/{code} never answers INSUFFICIENT_BALANCE
    if (error.code === 'INSUFFICIENT_BALANCE') throw error;
    code = error.code;
  }
}
server.close();

// @ts-expect-error not a path of the contract
const notAPath = () => client.GET('/not-a-path');
void notAPath;
type Listed = paths['/cards']['get']['responses'][200]['content']['application/json']['data'][number];
const listed: Listed = card;

const secret = 'whsec_pack_test_secret';
const raw = JSON.stringify({
  id: 'evt_2f1d5a7e-0c4b-4e8f-9a3d-6b7c8d9e0f1a',
  type: 'card.frozen',
  created_at: '2026-03-02T10:15:30Z',
  mode: 'test',
  data: { ...card, card_code: card.code, external_reference: 'ext-1', status: 'frozen' },
});
const headers = await signWebhook(raw, secret);
const event: WebhookEvent = await verifyWebhook(raw, headers, secret);
let frozen = '';
if (event.type === 'card.frozen') frozen = event.data.card_code;
let rejected = false;
await verifyWebhook(raw, headers, 'whsec_other').catch(() => {
  rejected = true;
});

console.log(JSON.stringify({
  mode: client.mode,
  cards: cards.length,
  first: first?.code,
  listed: listed.code,
  code,
  errorClass: PartnerApiError.name,
  seen,
  frozen,
  rejected,
}));
`;

const TSCONFIG = strictTsconfig(['consumer.ts', 'sandbox.ts'], {
  allowImportingTsExtensions: true,
  typeRoots: [path.join(ROOT, 'node_modules', '@types')],
});

let work: string;
let app: string;
let tarball: string;
let packed: { filename: string; files: { path: string }[] };
let readmeBefore: string;

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', ...env },
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}`);
  }
}

/** Starts the installed bin with `args` and resolves with its base URL once it listens. */
function startBin(args: string[]): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, [path.join(app, 'node_modules', '.bin', BIN), ...args], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
      if (match) resolve({ child, baseUrl: match[1]! });
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
}

function stopBin(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A Node on this machine older than the package's floor (the host's, outside node_modules), if any. */
function olderNode(): { path: string; version: string } | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/local/bin', '/usr/bin'].filter(
    (d) => d && !d.includes('node_modules'),
  );
  for (const dir of dirs) {
    const candidate = path.join(dir, 'node');
    if (!fs.existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
    const [major = 0, minor = 0] = version.split('.').map(Number);
    const [floorMajor, floorMinor] = FLOOR.split('.').map(Number) as [number, number];
    if (major < floorMajor || (major === floorMajor && minor < floorMinor)) return { path: candidate, version };
  }
  return undefined;
}

beforeAll(() => {
  readmeBefore = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-pack-'));
  const out = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], ROOT)) as [
    { filename: string; files: { path: string }[] },
  ];
  packed = out[0];
  tarball = path.join(work, path.basename(packed.filename));
  app = path.join(work, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', tarball], app);
  fs.writeFileSync(path.join(app, 'consumer.ts'), CONSUMER);
  fs.writeFileSync(path.join(app, 'sandbox.ts'), SANDBOX_CONSUMER);
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
}, 300_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('npm package', () => {
  it('ships the build, the contract types, the package README and nothing else', () => {
    const files = packed.files.map((f) => f.path);
    for (const f of [
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/webhooks/index.js',
      'dist/webhooks/index.d.ts',
      'dist/types.d.ts',
      'generated/openapi.d.ts',
      'generated/openapi.json',
      'dist/sandbox/index.js',
      'dist/sandbox/index.d.ts',
      'dist/sandbox/cli.js',
      'dist/trigger/cli.js',
      'dist/mcp/cli.js',
      'dist/llms-full.txt',
      'dist/testing/index.js',
      'dist/testing/index.d.ts',
    ]) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => /^(src|tests|spec|scripts|node_modules|docs)\//.test(f))).toEqual([]);
    const readme = fs.readFileSync(path.join(app, 'node_modules', ...NAME.split('/'), 'README.md'), 'utf8');
    expect(readme).toBe(fs.readFileSync(path.join(ROOT, 'docs', 'package-readme.md'), 'utf8'));
  });

  it('leaves the repository README as it was after packing', () => {
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toBe(readmeBefore);
    expect(fs.existsSync(path.join(ROOT, '.tmp', 'package', 'README.repository.md'))).toBe(false);
  });

  it("type-checks the consumers with this repository's TypeScript, the package's declarations included", () => {
    const check = (config: string) => {
      try {
        execFileSync(process.execPath, [TSC, '-p', config], { cwd: app, encoding: 'utf8', stdio: 'pipe' });
        return '';
      } catch (error) {
        return String((error as { stdout?: string }).stdout ?? error);
      }
    };
    expect(check('tsconfig.json')).toBe('');
  });

  it('runs the consumer: client call, typed error, pagination and a verified webhook', () => {
    const stdout = run(process.execPath, ['consumer.ts'], app);
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    expect(result).toEqual({
      mode: 'test',
      cards: 1,
      first: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      listed: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      code: 'RESOURCE_NOT_FOUND',
      errorClass: 'PartnerApiError',
      seen: ['GET /v1/cards?limit=20&page=1 Bearer sk_test_pack', 'GET /v1/cards/7c9e6679-7425-40de-944b-e07fc1f90ae7 Bearer sk_test_pack'],
      frozen: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      rejected: true,
    });
  });

  it('starts the sandbox in-process from the ./sandbox export, and drives it with the test kit', () => {
    expect(lastJsonLine(run(process.execPath, ['sandbox.ts'], app))).toEqual(SANDBOX_CONSUMER_RESULT);
  });

  it('serves the routes and validators compiled at pack (dist/sandbox/precompiled/), not read and compiled at start', () => {
    const core = path.join(app, 'node_modules', ...NAME.split('/'), 'dist', 'sandbox', 'core');
    const probe = `
      const { sandboxDocument, simulationDocument } = await import(${JSON.stringify(path.join(core, 'contract.js'))});
      const { precompiledRoutes } = await import(${JSON.stringify(path.join(core, 'precompiled.js'))});
      const routes = (d) => precompiledRoutes(d)?.length ?? 0;
      console.log(JSON.stringify({ partner: routes(sandboxDocument()), simulation: routes(simulationDocument()) }));`;
    const found = lastJsonLine(run(process.execPath, ['--input-type=module', '-e', probe], app)) as { partner: number; simulation: number };
    expect(found.partner).toBeGreaterThan(0);
    expect(found.simulation).toBeGreaterThan(0);
  });

  it('imports the ./sandbox export as one bundled module and its chunks, which validate with the precompiled validators', () => {
    const dist = path.join(app, 'node_modules', ...NAME.split('/'), 'dist');
    const probe = `
      import { registerHooks } from 'node:module';
      const resolved = new Set();
      registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); resolved.add(r.url); return r; } });
      const { startSandbox } = await import(${JSON.stringify(`${NAME}/sandbox`)});
      const sandbox = await startSandbox({ port: 0 });
      const answer = await fetch(sandbox.baseUrl + '/cards', {
        method: 'POST', headers: { authorization: 'Bearer sk_test_pack', 'content-type': 'application/json' }, body: '{}',
      });
      await sandbox.close();
      console.log(JSON.stringify({
        status: answer.status,
        resolved: [...resolved].filter((url) => url.startsWith('file:')).map((url) => new URL(url).pathname),
      }));`;
    const found = lastJsonLine(run(process.execPath, ['--input-type=module', '-e', probe], app)) as { status: number; resolved: string[] };
    expect(found.status).toBe(422);
    const ofDist = found.resolved.filter((file) => file.startsWith(`${dist}/`)).map((file) => path.relative(dist, file));
    const [code, validators] = [
      ofDist.filter((file) => !file.startsWith('sandbox/precompiled/')),
      ofDist.filter((file) => file.startsWith('sandbox/precompiled/')),
    ];
    expect(code).toContain('sandbox/index.js');
    expect(code.filter((file) => file !== 'sandbox/index.js' && !file.startsWith('sandbox/chunks/'))).toEqual([]);
    expect(validators).toEqual(['sandbox/precompiled/openapi.body.cjs']);
    expect(found.resolved.filter((file) => file.includes('/fastify-openapi-glue/') || file.includes('/ajv/dist/ajv.js'))).toEqual([]);
  });
});

describe('the sandbox bin', () => {
  const bin = () => path.join(app, 'node_modules', '.bin', BIN);
  const runBin = (...args: string[]) => spawnSync(process.execPath, [bin(), ...args], { cwd: app, encoding: 'utf8' });

  it('--help and -h: its name, every flag, the Node it needs and a link; --version and -v: the version', () => {
    for (const flag of ['--help', '-h']) {
      const help = runBin(flag);
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: ${BIN} `));
      for (const option of [
        '--port',
        '--host',
        '--db',
        '--config',
        '--seed',
        '--seed-key',
        '--manual',
        '--no-rate-limit',
        '--help',
        '--version',
      ]) {
        expect(help.stdout).toContain(option);
      }
      expect(help.stdout).toContain(`Node.js ${FLOOR} or later`);
      expect(help.stdout).toContain(`Docs: ${PACKAGE.homepage}guides/sandbox/`);
    }
    for (const flag of ['--version', '-v']) expect(runBin(flag).stdout.trim()).toBe(PACKAGE.version);
  });

  it('a mistyped flag: one line with "did you mean", the usage, exit 2', () => {
    const typo = runBin('--prot', '4020');
    expect(typo.status).toBe(2);
    expect(typo.stderr.split('\n')[0]).toBe(`${BIN}: unknown option --prot (did you mean --port?)`);
    expect(typo.stderr).toMatch(/\nUsage: /);
    expect(typo.stderr).not.toMatch(/\n\s+at /);
  });

  it('a busy port: one line naming it and the fix, exit 1', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as net.AddressInfo;
    try {
      const result = spawnSync(process.execPath, [bin(), '--port', String(port)], { cwd: app, encoding: 'utf8', timeout: 60_000 });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(
        `${BIN}: port ${port} on 127.0.0.1 is already in use; pass --port <port> to use another one (--port 0 picks a free one)`,
      );
    } finally {
      busy.close();
    }
  });

  it('serves until stopped', async () => {
    const { child, baseUrl } = await startBin(['--port', '0']);
    try {
      const response = await fetch(`${baseUrl}/balance`, { headers: { Authorization: 'Bearer sk_test_bin' } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(5);
    } finally {
      await stopBin(child);
    }
  });

  const old = olderNode();
  it.skipIf(!old)(
    `on a Node older than ${FLOOR} (${old?.path} ${old?.version}): the bin and the ./sandbox entry say so in one line`,
    () => {
      const line = (who: string) => `${who} needs Node.js ${FLOOR} or later (for node:sqlite); this is Node.js ${old!.version}.`;
      const fromBin = spawnSync(old!.path, [bin(), '--port', '0'], { cwd: app, encoding: 'utf8' });
      expect(fromBin.status).toBe(1);
      expect(fromBin.stderr).toBe(`${BIN}: ${line('the sandbox')}\n`);
      const entry = spawnSync(old!.path, ['--input-type=module', '-e', `import '${NAME}/sandbox';`], { cwd: app, encoding: 'utf8' });
      expect(entry.status).toBe(1);
      expect(entry.stderr).toContain(line('The sandbox (@partner-api/contract/sandbox)'));
      expect(entry.stderr).not.toMatch(/ERR_UNKNOWN_BUILTIN_MODULE|\n\s+at /);
      // Caught, the error is that one line.
      const caught = spawnSync(
        old!.path,
        ['--input-type=module', '-e', `try { await import('${NAME}/sandbox'); } catch (e) { console.log(e.stack); }`],
        { cwd: app, encoding: 'utf8' },
      );
      expect(caught.stdout.trim()).toBe(`Error: ${line('The sandbox (@partner-api/contract/sandbox)')}`);
    },
  );
});

describe('the trigger bin', () => {
  const TRIGGER = BINS.find((b) => PACKAGE.bin[b] === './dist/trigger/cli.js')!;
  const runTrigger = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(app, 'node_modules', '.bin', TRIGGER), ...args], {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, WEBHOOK_SECRET: '' },
    });

  it("--list reads the events from the package's own generated/openapi.json; a delivery verifies with the ./webhooks export", async () => {
    const shipped = JSON.parse(
      fs.readFileSync(path.join(app, 'node_modules', ...NAME.split('/'), 'generated', 'openapi.json'), 'utf8'),
    ) as JsonObject;
    const list = runTrigger('--list');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout.trim().split('\n')).toEqual(contractModel(shipped).webhooks.map((w) => w.path));

    const secret = 'whsec_pack_trigger';
    const verified: string[] = [];
    const { verifyWebhook } = (await import(
      path.join(app, 'node_modules', ...NAME.split('/'), 'dist', 'webhooks', 'index.js')
    )) as typeof import('../../src/webhooks/index.ts');
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        verifyWebhook(Buffer.concat(chunks), req.headers, secret).then(
          (event) => {
            verified.push(event.type);
            res.writeHead(204).end();
          },
          () => res.writeHead(400).end(),
        );
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/webhooks`;
      const sent = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [path.join(app, 'node_modules', '.bin', TRIGGER), 'card.frozen', '--url', url, '--secret', secret],
          { cwd: app },
        );
        let stdout = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c));
        child.once('close', (code) => resolve({ code, stdout }));
      });
      expect(sent.code, sent.stdout).toBe(0);
      expect(sent.stdout).toMatch(/card\.frozen\s+204 No Content\s+\d+ ms/);
      expect(verified).toEqual(['card.frozen']);
    } finally {
      receiver.close();
    }
  });

  it('--help under its name, --version', () => {
    const help = runTrigger('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: ${TRIGGER} <event\\.type> `));
    expect(runTrigger('--version').stdout.trim()).toBe(PACKAGE.version);
  });
});

describe('the MCP bin', () => {
  const MCP = BINS.find((b) => PACKAGE.bin[b] === './dist/mcp/cli.js')!;

  it('speaks MCP over stdio: its own sandbox, and the docs the package ships (dist/llms-full.txt)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(app, 'node_modules', '.bin', MCP)],
      cwd: app,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'pack-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const text = async (name: string, args: Record<string, unknown>) =>
        ((await client.callTool({ name, arguments: args })).content as { text: string }[])[0]!.text;
      const balances = JSON.parse(await text('call_partner_api', { operation_id: 'listBalances' })) as {
        status: number;
        body: { data: unknown[] };
      };
      expect(balances.status).toBe(200);
      expect(balances.body.data).toHaveLength(5);
      expect(await text('search_docs', { query: 'webhook signature', limit: 1 })).toContain('Page: /guides/webhooks/');
      expect(await text('describe_operation', { operation_id: 'freezeCard' })).toContain('### Freeze a card');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('--help under its name, --version', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(app, 'node_modules', '.bin', MCP), ...args], { cwd: app, encoding: 'utf8' });
    expect(run('--help').stdout).toMatch(new RegExp(`^Usage: ${MCP} \\[options\\]`));
    expect(run('--version').stdout.trim()).toBe(PACKAGE.version);
  });
});
