// The MCP server's in-process sandbox keeps the sandbox's per-key rate limit, and `--no-rate-limit` turns it off,
// as the sandbox's bin's flag of that name does: the account on the Découverte plan (30 requests a minute) answers
// its 31st request 429 by default, and 200 with the flag. The flag is refused with --server, whose sandbox is not
// this process's.
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli-parser.ts';
import { parseCli } from '../../src/mcp/mcp-flags.ts';
import { startTarget, type Target } from '../../src/mcp/target.ts';

const KEY = 'sk_test_mcp_rate_limit';
let target: Target | undefined;

afterEach(async () => {
  await target?.close();
  target = undefined;
});

/** The statuses of 31 requests of the key on the Découverte plan, through the tools' target. */
async function statusesOf(argv: string[]): Promise<number[]> {
  const args = parseCli([...argv, '--api-key', KEY], {});
  if (!args || args.version) throw new Error('no arguments parsed');
  target = await startTarget(args);
  const plan = await fetch(`${target.simulationUrl}/account`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ plan: 'decouverte' }),
  });
  expect(plan.status).toBe(200);
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++) {
    const response = await fetch(`${target.baseUrl}/balance`, { headers: { Authorization: `Bearer ${KEY}` } });
    await response.body?.cancel();
    statuses.push(response.status);
  }
  return statuses;
}

describe('the in-process sandbox of the MCP server', () => {
  it("keeps the sandbox's rate limit by default: the 31st request of a minute on Découverte is 429", async () => {
    const statuses = await statusesOf([]);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('turns it off with --no-rate-limit', async () => {
    expect(parseCli(['--no-rate-limit'], {})).toMatchObject({ target: { kind: 'in-process', rateLimit: false } });
    expect(await statusesOf(['--no-rate-limit'])).toEqual(Array(31).fill(200));
  });

  it('refuses --no-rate-limit with --server', () => {
    expect(() => parseCli(['--server', 'http://x/v1', '--api-key', KEY, '--no-rate-limit'], {})).toThrow(
      new UsageError(
        '--no-rate-limit is for the in-process sandbox: drop it, or drop --server (PATCH /sandbox/account sets rate_limit on another sandbox)',
      ),
    );
  });
});
