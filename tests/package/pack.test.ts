// The package as another repository gets it: `npm pack` (its prepack script runs `npm run build:lib`), `npm install <tarball>` in
// a temporary project, type-check a consumer with the project's TypeScript, then run it (a client call
// against a local node:http server, and a signed webhook verified with the ./webhooks export).
// openapi-fetch is installed from the registry.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const NAME = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string }).name;

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

// The sandbox from the tarball: started in-process through the `./sandbox` export, called with the client.
const SANDBOX_CONSUMER = `
import { createPartnerClient } from '${NAME}';
import { startSandbox, type RunningSandbox } from '${NAME}/sandbox';

const sandbox: RunningSandbox = await startSandbox({ port: 0 });
const client = createPartnerClient({ apiKey: 'sk_test_packed', baseUrl: sandbox.baseUrl, retry: false });
const balances = await client.call.GET('/balance');
const missing = await client.GET('/cards/{code}', { params: { path: { code: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } } });
await sandbox.close();
console.log(JSON.stringify({ balances: balances.data.length, mode: balances.meta.mode, missing: missing.error?.error.code }));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules', '@types')],
  },
  files: ['consumer.ts', 'sandbox.ts'],
};

let work: string;
let tarball: string;
let packed: { filename: string; files: { path: string }[] };

function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}`);
  }
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-pack-'));
  const out = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], ROOT)) as [
    { filename: string; files: { path: string }[] },
  ];
  packed = out[0];
  tarball = path.join(work, path.basename(packed.filename));
  const app = path.join(work, 'app');
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
  it('ships the build, the contract types and nothing else', () => {
    const files = packed.files.map((f) => f.path);
    for (const f of [
      'package.json',
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
    ]) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => /^(src|tests|spec|scripts|node_modules)\//.test(f))).toEqual([]);
  });

  it("type-checks a consumer with the project's TypeScript", () => {
    const app = path.join(work, 'app');
    const output = (() => {
      try {
        execFileSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8', stdio: 'pipe' });
        return '';
      } catch (error) {
        return String((error as { stdout?: string }).stdout ?? error);
      }
    })();
    expect(output).toBe('');
  });

  it('runs the consumer: client call, typed error, pagination and a verified webhook', () => {
    const app = path.join(work, 'app');
    const stdout = run(process.execPath, ['consumer.ts'], app);
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    expect(result).toEqual({
      mode: 'test',
      cards: 1,
      first: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      listed: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      code: 'RESOURCE_NOT_FOUND',
      errorClass: 'PartnerApiError',
      seen: [
        'GET /v1/cards?limit=20&page=1 Bearer sk_test_pack',
        'GET /v1/cards/7c9e6679-7425-40de-944b-e07fc1f90ae7 Bearer sk_test_pack',
      ],
      frozen: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      rejected: true,
    });
  });

  it('starts the sandbox in-process from the ./sandbox export', () => {
    const app = path.join(work, 'app');
    const stdout = run(process.execPath, ['sandbox.ts'], app);
    expect(JSON.parse(stdout.trim().split('\n').pop() ?? '{}')).toEqual({ balances: 5, mode: 'test', missing: 'RESOURCE_NOT_FOUND' });
  });

  it('runs the sandbox bin: it serves until stopped, and an unknown flag exits 2', async () => {
    const app = path.join(work, 'app');
    const bin = path.join(app, 'node_modules', '.bin', 'partner-api-sandbox');
    const bad = spawnSync(process.execPath, [bin, '--nope'], { cwd: app, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("Unknown option '--nope'");
    const child = spawn(process.execPath, [bin, '--port', '0'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
      });
      const response = await fetch(`${baseUrl}/balance`, { headers: { Authorization: 'Bearer sk_test_bin' } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(5);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
