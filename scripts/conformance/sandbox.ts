// `npm run conformance:sandbox`: starts the stateful sandbox (src/sandbox) in-process on a free 127.0.0.1
// port, with the contract's example records seeded and a webhook route from an https:// url to the receiver
// the suite hosts, runs the conformance suite against it in real mode (operations and workflows), and stops
// it. `--only`, `--workflow` and `--verbose` go to the suite. See docs/conformance.md ("Against the sandbox").
import { randomBytes } from 'node:crypto';
import { parseCli, runCli } from '../lib/cli-parser.ts';
import { findFreePort } from '../lib/port-check.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { main } from './run.ts';

const API_KEY = 'sk_test_conformance';
const REVOKED_KEY = 'sk_test_conformance_revoked';
const IP_BLOCKED_KEY = 'sk_test_conformance_ip_blocked';
const RATE_LIMITED_KEY = 'sk_test_conformance_rate_limited';
const NO_PRODUCT_KEY = 'sk_test_conformance_no_product';
// Another account (every well-formed key has one in the sandbox), for the isolation checks.
const SECOND_KEY = 'sk_test_conformance_second';
const WEBHOOK_URL = 'https://receiver.conformance.test';
const PUBLIC_URL = 'https://sandbox.conformance.test';

const USAGE = `Usage: npm run conformance:sandbox [-- --only <operationIds|paths>] [--workflow <workflowIds>] [--verbose]
  --only <list>       check only these operations: operationIds or paths, comma-separated or repeated
  --workflow <list>   run only these workflows (workflowIds, comma-separated or repeated)
  --verbose           print Dredd's and Respect's own output`;

await runCli('conformance:sandbox', USAGE, async () => {
  const args = parseCli(process.argv.slice(2), {
    usage: USAGE,
    options: { only: { type: 'string', multiple: true }, workflow: { type: 'string', multiple: true }, verbose: { type: 'boolean' } },
  });
  if (!args) return 0;
  const passed = [
    ...(args.values.only ?? []).flatMap((o) => ['--only', o]),
    ...(args.values.workflow ?? []).flatMap((w) => ['--workflow', w]),
    ...(args.values.verbose ? ['--verbose'] : []),
  ];
  // The suite hosts the webhook receiver on this port; the endpoints' urls are https:// ones, as the contract
  // requires, and a webhook route delivers them to it. The revoked key is the key the server must refuse (zero
  // setup accepts every other key); a new key is an account without webhook endpoints.
  const receiverPort = await findFreePort('127.0.0.1');
  const receiverUrl = `http://127.0.0.1:${receiverPort}`;
  const freshKey = `sk_test_conformance_fresh_${randomBytes(6).toString('hex')}`;
  const sandbox = await startSandbox({
    port: 0,
    seedExamples: API_KEY,
    // The KYC page link is given under an https:// address, as the contract requires (nobody opens it here).
    publicUrl: PUBLIC_URL,
    config: {
      webhook_routes: { [WEBHOOK_URL]: receiverUrl },
      // The suite sends about 500 requests in a few seconds: more than the plan's 100 a minute.
      accounts: {
        [API_KEY]: { rate_limit: 100_000 },
        [REVOKED_KEY]: { revoked: true },
        // 403 IP_NOT_ALLOWED, provoked with a key whose allow-list excludes the loopback.
        [IP_BLOCKED_KEY]: { allowed_ips: ['203.0.113.7'] },
        // 429 RATE_LIMIT_EXCEEDED: one request a minute (the suite spends it before each 429 transaction).
        [RATE_LIMITED_KEY]: { rate_limit: 1 },
        // 402 PLAN_UPGRADE_REQUIRED: a subscription with no product.
        [NO_PRODUCT_KEY]: { products: [] },
        [SECOND_KEY]: { rate_limit: 100_000 },
      },
    },
  });
  console.log(`Sandbox at ${sandbox.baseUrl} (gift cards at ${sandbox.giftCardBaseUrl})`);
  try {
    return await main([
      '--server',
      sandbox.baseUrl,
      '--alt-server',
      sandbox.giftCardBaseUrl,
      '--api-key',
      API_KEY,
      '--real',
      '--webhook-url',
      `${WEBHOOK_URL}/webhooks`,
      '--unknown-key',
      REVOKED_KEY,
      '--ip-blocked-key',
      IP_BLOCKED_KEY,
      '--rate-limited-key',
      RATE_LIMITED_KEY,
      '--no-product-key',
      NO_PRODUCT_KEY,
      '--second-key',
      SECOND_KEY,
      // 500/502 faults, drained balances (400) and the KYC identity mismatch (synchronize 200).
      '--simulation-url',
      sandbox.simulationUrl,
      '--receiver-port',
      String(receiverPort),
      '--fresh-api-key',
      freshKey,
      ...passed,
    ]);
  } finally {
    await sandbox.close();
  }
});
