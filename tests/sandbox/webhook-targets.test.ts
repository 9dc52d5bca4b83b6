// Webhook targets (docs/sandbox.md, "Webhook targets"): under the `public` policy (the default beyond loopback)
// a target that is not a public address is refused without a connection, the caller of a ping learns only
// whether a 2xx came (the reason is kept in the delivery history of the endpoint's events), and under either
// policy a receiver's answer is read up to 64 KiB, then the connection is closed.
import type { components } from '../../generated/openapi.js';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_LIMIT_BYTES } from '../../src/sandbox/core/bounds.ts';
import { postSigned } from '../../src/sandbox/core/delivery.ts';
import { checkConfig } from '../../src/sandbox/core/sandbox.ts';
import { DatabaseSync } from '../../src/sandbox/core/sqlite.ts';
import { SqliteDb } from '../../src/sandbox/core/store.ts';
import { defaultPolicy, isPublicAddress, WebhookTargets } from '../../src/sandbox/core/webhook-targets.ts';
import type { WebhookEventType } from '../../src/webhooks/event-types.ts';
import { failure, startReceiver, startTestSandbox, until, type TestSandbox } from './support.ts';

/** A loopback server that counts the connections made to it, and answers 200. */
async function startCounter(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const server = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    connections: () => connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A port of 127.0.0.1 where nothing listens (a server opened there, then closed). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Emits an event for an account, as a state change of the sandbox would. */
function emit(sandbox: TestSandbox, key: string, type: WebhookEventType = 'balance.low_balance') {
  const account = sandbox.core.accounts.resolve(key);
  const data = { balance_type: 'cards_visa', balance: 42, lowBalanceThreshold: 100 } as never;
  return sandbox.core.db.transaction(() => sandbox.core.outbox.emit(account, type, data));
}

describe('the policy', () => {
  it('is `local` on a loopback address and `public` on any other', async () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost']) expect(defaultPolicy(host), host).toBe('local');
    for (const host of ['0.0.0.0', '::', '192.168.1.20', '10.0.0.4', '203.0.113.9', 'sandbox.example.test'])
      expect(defaultPolicy(host), host).toBe('public');
    const sandbox = await startTestSandbox();
    expect(sandbox.core.delivery.targets.policy).toBe('local');
    await sandbox.close();
    expect(new WebhookTargets({ policy: 'local' }, '0.0.0.0').policy).toBe('local');
  });

  it('takes only public unicast addresses as public', () => {
    const notPublic = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      'ff02::1',
    ];
    for (const address of notPublic) expect(isPublicAddress(address), address).toBe(false);
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4007:80b::200e'])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it('checks its --config: the policy, and each exception as a CIDR, an address or a host name', () => {
    expect(() =>
      checkConfig({ webhook_targets: { policy: 'public', allow: ['10.1.0.0/16', '10.2.3.4', 'fd00::/8', 'hooks.internal.test'] } }),
    ).not.toThrow();
    expect(() => checkConfig({ webhook_targets: { policy: 'open' } })).toThrow(/webhook_targets.policy: must be one of local, public/);
    expect(() => checkConfig({ webhook_targets: { allow: ['10.0.0.0/33'] } })).toThrow(/"10.0.0.0\/33" is not a CIDR/);
    expect(() => checkConfig({ webhook_targets: { allow: 'everything' } })).toThrow(/allow: must be a list/);
    expect(() => checkConfig({ webhook_targets: { deny: [] } })).toThrow(/unknown setting "deny"/);
  });
});

describe('`public`: a target that is not a public address is refused, without a connection', () => {
  let sandbox: TestSandbox;
  let counter: Awaited<ReturnType<typeof startCounter>>;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ config: { webhook_targets: { policy: 'public' } } });
    counter = await startCounter();
  });
  afterAll(async () => {
    await sandbox.close();
    await counter.close();
  });

  it('a loopback address, by address and by name, is refused; the caller is told no reason', async () => {
    const client = sandbox.client('sk_test_refused');
    const port = new URL(counter.url).port;
    for (const url of [counter.url, `http://localhost:${port}/hooks`, `http://[::1]:${port}/hooks`]) {
      const refused = await failure(client.call.POST('/webhooks', { body: { url, events: ['*'] } }));
      expect(refused, url).toMatchObject({
        status: 422,
        code: 'VALIDATION_ERROR',
        details: { reason: 'webhook_ping_failed', ping_status: null },
      });
      expect(refused.details.fields).toEqual([{ field: 'url', message: 'must answer the ping with a 2xx (no answer)' }]);
    }
    expect(counter.connections()).toBe(0);
    expect((await client.call.GET('/webhooks')).data).toEqual([]);
    expect(sandbox.problems).toEqual([]);
  });

  it('the cloud metadata address and private networks are refused before any connection', async () => {
    for (const url of ['https://169.254.169.254/latest/meta-data', 'https://10.0.0.1/hooks', 'https://[fd00::1]/hooks']) {
      const result = await postSigned(url, '{}', 'whsec_x', 'idem_x', { targets: sandbox.core.delivery.targets, timeoutMs: 60_000 });
      expect(result, url).toMatchObject({
        status: null,
        failure: 'no answer: the target is not an address this sandbox delivers to',
        bytesRead: 0,
      });
    }
  });

  it('an address or a host name the config allows is delivered to', async () => {
    for (const allow of ['127.0.0.1', '127.0.0.0/8', 'localhost']) {
      const allowing = await startTestSandbox({ config: { webhook_targets: { policy: 'public', allow: [allow] } } });
      const receiver = await startReceiver();
      try {
        const url = allow === 'localhost' ? receiver.url.replace('127.0.0.1', 'localhost') : receiver.url;
        const created = (await allowing.client('sk_test_allowed').call.POST('/webhooks', { body: { url, events: ['*'] } })).data;
        expect(created.url, allow).toBe(url);
        expect(receiver.pings).toBe(1);
      } finally {
        await allowing.close();
        await receiver.close();
      }
    }
  });

  it('a webhook route goes where the operator sends it, whatever the policy', async () => {
    const routed = await startTestSandbox({
      config: {
        webhook_targets: { policy: 'public' },
        webhook_routes: { 'https://hooks.example.test': counter.url.replace('/hooks', '') },
      },
    });
    try {
      const before = counter.connections();
      await routed.client('sk_test_routed').call.POST('/webhooks', { body: { url: 'https://hooks.example.test/hooks', events: ['*'] } });
      expect(counter.connections()).toBe(before + 1);
    } finally {
      await routed.close();
    }
  });
});

describe('the sandbox itself is never a target', () => {
  it('its own address is refused, and `local` says so', async () => {
    const sandbox = await startTestSandbox();
    try {
      for (const url of [`${sandbox.url}/v1/webhooks`, `${sandbox.url.replace('127.0.0.1', 'localhost')}/sandbox/faults`]) {
        const refused = await failure(sandbox.client('sk_test_self').call.POST('/webhooks', { body: { url, events: ['*'] } }));
        expect(refused.details.fields[0].message, url).toBe(
          'must answer the ping with a 2xx (no answer: the target is this sandbox itself)',
        );
      }
    } finally {
      await sandbox.close();
    }
  });
});

describe('why a ping or a delivery failed: told under `local`; under `public`, kept in the delivery history only', () => {
  const KEY = 'sk_test_reasons';
  let local: TestSandbox;
  let hosted: TestSandbox;
  beforeAll(async () => {
    local = await startTestSandbox();
    // Public, with loopback allowed so that this machine's receivers stand for public ones.
    hosted = await startTestSandbox({ config: { webhook_targets: { policy: 'public', allow: ['127.0.0.0/8'] } } });
  });
  afterAll(async () => {
    await local.close();
    await hosted.close();
  });

  it('the ping of a new url: the connection error under `local`, none under `public`', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hooks`;
    const told = await failure(local.client(KEY).call.POST('/webhooks', { body: { url, events: ['*'] } }));
    expect(told.details.fields[0].message).toBe('must answer the ping with a 2xx (no answer (ECONNREFUSED))');
    const answer = await hosted.request('POST', '/v1/webhooks', { body: JSON.stringify({ url, events: ['*'] }) });
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.body)).not.toMatch(/ECONNREFUSED|refused|connect/i);
    expect(answer.body.error.details).toMatchObject({
      reason: 'webhook_ping_failed',
      ping_status: null,
      fields: [{ field: 'url', message: 'must answer the ping with a 2xx (no answer)' }],
    });
    expect(answer.body.error.message).toContain('does not say why a ping got no answer');
  });

  it('the test ping: `failure_reason` is the reason under `local`, and only "no answer" or the HTTP status under `public`', async () => {
    for (const [sandbox, expected] of [
      [local, 'no answer (ECONNREFUSED)'],
      [hosted, 'no answer'],
    ] as const) {
      const receiver = await startReceiver();
      const created = (await sandbox.client(KEY).call.POST('/webhooks', { body: { url: receiver.url, events: ['card.frozen'] } })).data;
      receiver.pingStatus = 404;
      const notFound = (await sandbox.client(KEY).call.POST('/webhooks/{code}/test', { params: { path: { code: created.code } } })).data;
      expect(notFound).toMatchObject({ success: false, response_code: 404, failure_reason: 'HTTP 404' });
      await receiver.close();
      const tested = (await sandbox.client(KEY).call.POST('/webhooks/{code}/test', { params: { path: { code: created.code } } })).data;
      expect(tested).toMatchObject({ success: false, response_code: null, failure_reason: expected });
    }
  });

  it('the delivery history keeps the reason of each failed attempt, under `public` too, and clears it once delivered', async () => {
    const key = 'sk_test_history';
    const receiver = await startReceiver();
    const client = hosted.client(key);
    const created = (await client.call.POST('/webhooks', { body: { url: receiver.url, events: ['*'] } })).data;
    receiver.secret = created.secret;
    const latest = async () => {
      for (;;) {
        const [row] = (await client.call.GET('/webhooks/{code}/deliveries', { params: { path: { code: created.code } } })).data;
        if (row && row.duration_ms !== null) return row;
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    receiver.status = 503;
    emit(hosted, key);
    expect(await latest()).toMatchObject({ status: 'pending', response_code: 503, failure_reason: 'HTTP 503', attempt: 1 });
    receiver.status = 200;
    await hosted.advance(120, key);
    await until(() => receiver.events.length === 2);
    let retried: Awaited<ReturnType<typeof latest>>;
    do retried = await latest();
    while (retried.attempt === 1);
    expect(retried).toMatchObject({ status: 'delivered', response_code: 200, failure_reason: null, attempt: 2 });
    await receiver.close();
    emit(hosted, key);
    let refused: Awaited<ReturnType<typeof latest>>;
    do refused = await latest();
    while (refused.code === retried.code);
    expect(refused).toMatchObject({ status: 'pending', response_code: null, failure_reason: 'no answer (ECONNREFUSED)', attempt: 1 });
    expect(hosted.problems).toEqual([]);
  });
});

describe("a receiver's answer is read up to 64 KiB, then the connection is closed", () => {
  const TOTAL = 64 * 1024 * 1024;
  let server: http.Server;
  let url: string;
  const sent: number[] = [];
  beforeAll(async () => {
    // Answers 200, then writes 64 MiB as fast as the connection takes it, and records how much it could write.
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': TOTAL });
        const chunk = Buffer.alloc(64 * 1024, 120);
        let written = 0;
        const pump = () => {
          while (written < TOTAL && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => sent.push(written));
        pump();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/huge`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('a 64 MiB answer: at most 64 KiB read, the status kept, the rest never sent', async () => {
    const result = await postSigned(url, '{}', 'whsec_x', 'idem_x');
    expect(result).toMatchObject({ status: 200, failure: null });
    expect(result.bytesRead).toBeGreaterThan(0);
    expect(result.bytesRead).toBeLessThanOrEqual(ANSWER_LIMIT_BYTES + 64 * 1024);
    await until(() => sent.length === 1);
    // What the kernel's socket buffers took before the connection closed, far from all of it.
    expect(sent[0]).toBeLessThan(TOTAL / 2);
  });

  it('through the sandbox: the ping and a delivery to it succeed, each cut short', async () => {
    const sandbox = await startTestSandbox();
    try {
      const key = 'sk_test_huge';
      const client = sandbox.client(key);
      const { code } = (await client.call.POST('/webhooks', { body: { url, events: ['*'] } })).data;
      emit(sandbox, key);
      let delivery: components['schemas']['WebhookDelivery'] | undefined;
      do delivery = (await client.call.GET('/webhooks/{code}/deliveries', { params: { path: { code } } })).data[0];
      while (!delivery || delivery.status === 'pending');
      expect(delivery).toMatchObject({ status: 'delivered', response_code: 200, failure_reason: null });
      await until(() => sent.length === 3);
      for (const written of sent.slice(1)) expect(written).toBeLessThan(TOTAL / 2);
    } finally {
      await sandbox.close();
    }
  });
});

it('a --db file made before `failure_reason` existed gains the column when the sandbox opens it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-columns-'));
  try {
    const file = path.join(dir, 'old.db');
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE deliveries (seq INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL UNIQUE, account_id INTEGER NOT NULL, endpoint_code TEXT NOT NULL,
      event_id TEXT NOT NULL, status TEXT NOT NULL, response_code INTEGER, attempt INTEGER NOT NULL, duration_ms INTEGER, idempotency_key TEXT NOT NULL,
      created_at INTEGER NOT NULL, last_attempt_at INTEGER, next_retry_at INTEGER) STRICT`);
    old.close();
    const db = new SqliteDb(file);
    expect(db.all<{ name: string }>('PRAGMA table_info(deliveries)').map((c) => c.name)).toContain('failure_reason');
    db.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
