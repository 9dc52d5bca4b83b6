// Where the sandbox may send a webhook (the ping of a new or changed url, the test ping, every delivery), and
// what it tells the caller when that fails. Any key gets an account, so on a sandbox that others can reach a
// webhook url is a request the sandbox makes on a stranger's behalf: to its own network, to its own API, to a
// cloud's metadata address. Two policies (docs/sandbox.md, "Webhook targets"):
// - `local` (the default on a loopback address, where only this machine reaches the sandbox): any target, and the
//   reason a ping failed in the answer (`ECONNREFUSED`, `HTTP 404`), as a developer needs it.
// - `public` (the default on any other address): only public unicast addresses, checked on the address each
//   connection is made to (after DNS, so a name that resolves or re-resolves to a private address is refused too),
//   never the sandbox's own addresses or public url; `allow` names the exceptions (a CIDR, an address, a host
//   name). A ping's caller learns only whether a 2xx came and its HTTP status; why it failed is kept in the
//   delivery history of the endpoint's events, without the addresses a name resolved to.
// Routed urls (`webhook_routes`) go where the operator's config sends them, whatever the policy.
import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';

export type WebhookTargetPolicy = 'local' | 'public';
export const WEBHOOK_TARGET_POLICIES: readonly WebhookTargetPolicy[] = ['local', 'public'];

/** `"webhook_targets"` of a --config file. */
export interface WebhookTargetsConfig {
  /** Default: `local` when the sandbox listens on a loopback address, `public` otherwise. */
  policy?: WebhookTargetPolicy;
  /** Targets a `public` sandbox delivers to although they are not public: `"10.1.0.0/16"`, `"10.1.2.3"`, `"hooks.internal.test"`. */
  allow?: string[];
}

/** The code of the error a refused target fails with (no connection is made). */
export const TARGET_REFUSED = 'ETARGETREFUSED';

/**
 * What is not a public unicast address: this host, private networks, link-local (the cloud metadata address
 * 169.254.169.254), shared address space, multicast, reserved and documentation ranges, and the IPv6 forms that
 * carry an IPv4 address (mapped ones are checked as IPv4 by BlockList; NAT64, 6to4 and Teredo are refused whole).
 */
const NOT_PUBLIC: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001::', 32, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['2002::', 16, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

const notPublic = new net.BlockList();
for (const [address, prefix, type] of NOT_PUBLIC) notPublic.addSubnet(address, prefix, type);

const familyOf = (address: string): 'ipv4' | 'ipv6' => (net.isIPv6(address) ? 'ipv6' : 'ipv4');

/** Whether `address` (an IP literal) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  return net.isIP(address) !== 0 && !notPublic.check(address, familyOf(address));
}

/** Whether `host` (an address to listen on, or a host name) is this machine's loopback only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  return bare === '::1';
}

/** The policy of a sandbox listening on `host`, unless its config names one. */
export const defaultPolicy = (host: string): WebhookTargetPolicy => (isLoopbackHost(host) ? 'local' : 'public');

/** Checks `webhook_targets` of a --config object; throws an Error naming the first problem. */
export function checkWebhookTargets(targets: unknown): WebhookTargetsConfig {
  if (!targets || typeof targets !== 'object' || Array.isArray(targets))
    throw new Error('config webhook_targets: must be an object { "policy": "local" | "public", "allow": [...] }');
  const t = targets as WebhookTargetsConfig;
  for (const key of Object.keys(t)) {
    if (key !== 'policy' && key !== 'allow') throw new Error(`config webhook_targets: unknown setting "${key}" (policy, allow)`);
  }
  if (t.policy !== undefined && !WEBHOOK_TARGET_POLICIES.includes(t.policy))
    throw new Error(`config webhook_targets.policy: must be one of ${WEBHOOK_TARGET_POLICIES.join(', ')}`);
  if (t.allow !== undefined && !Array.isArray(t.allow))
    throw new Error('config webhook_targets.allow: must be a list of CIDRs, addresses or host names');
  for (const entry of t.allow ?? []) {
    if (typeof entry !== 'string' || parseAllowed(entry) === undefined) {
      throw new Error(`config webhook_targets.allow: "${String(entry)}" is not a CIDR ("10.1.0.0/16"), an address or a host name`);
    }
  }
  return t;
}

type Allowed = { subnet: [string, number, 'ipv4' | 'ipv6'] } | { host: string };

function parseAllowed(entry: string): Allowed | undefined {
  const [address = '', prefix, ...rest] = entry.trim().split('/');
  const bare = address.replace(/^\[|\]$/g, '');
  if (rest.length === 0 && net.isIP(bare) !== 0) {
    const type = familyOf(bare);
    const max = type === 'ipv4' ? 32 : 128;
    const bits = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
    return bits >= 0 && bits <= max ? { subnet: [bare, bits, type] } : undefined;
  }
  return prefix === undefined && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(bare)
    ? { host: bare.toLowerCase() }
    : undefined;
}

/** This machine's own addresses: a target there is the sandbox itself, or its neighbours on the host. */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const i of list ?? []) own.add(i.address.replace(/%.*$/, '').toLowerCase());
  return own;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A sandbox's webhook target policy, applied to every connection its webhooks make. */
export class WebhookTargets {
  readonly policy: WebhookTargetPolicy;
  private readonly allowedSubnets = new net.BlockList();
  private readonly allowedHosts = new Set<string>();
  /** Origins that are the sandbox itself (its public url): refused under `public` unless allowed. */
  private readonly selfOrigins = new Set<string>();

  constructor(config: WebhookTargetsConfig, listenHost: string) {
    this.policy = config.policy ?? defaultPolicy(listenHost);
    for (const entry of config.allow ?? []) {
      const allowed = parseAllowed(entry)!;
      if ('host' in allowed) this.allowedHosts.add(allowed.host);
      else this.allowedSubnets.addSubnet(...allowed.subnet);
    }
  }

  /**
   * An address of the sandbox itself (where it listens, its `publicUrl`): refused under either policy, since a
   * webhook there is the sandbox calling its own API. On a loopback address, every loopback name of it.
   */
  addSelf(url: string): void {
    const self = new URL(url);
    this.selfOrigins.add(self.origin);
    if (isLoopbackHost(self.hostname) || ['0.0.0.0', '[::]'].includes(self.hostname)) {
      for (const host of ['127.0.0.1', 'localhost', '[::1]'])
        this.selfOrigins.add(`${self.protocol}//${host}${self.port ? `:${self.port}` : ''}`);
    }
  }

  /**
   * What the caller of a ping (`POST /webhooks`, `PATCH /webhooks/{code}`, the test ping) is told of its failure:
   * the reason under `local`; under `public` only whether an HTTP answer came and its status, so that a ping is
   * no probe of what answers where (refused, reset, a TLS error, a time-out, a refused target all read alike).
   */
  callerReason(result: { status: number | null; failure: string | null }): string | null {
    if (result.failure === null || this.policy === 'local') return result.failure;
    return result.status === null ? 'no answer' : `HTTP ${result.status}`;
  }

  /**
   * The reason a delivery's history keeps: the failure as it was, except that under `public` a name that does not
   * resolve reads as a refused target (either says the same: no address this sandbox delivers to), so the history
   * does not tell which names the sandbox's resolver knows.
   */
  historyReason(failure: string | null): string | null {
    if (failure === null || this.policy === 'local') return failure;
    return /^no answer \((ENOTFOUND|EAI_AGAIN|EAI_FAIL|ENODATA|ESERVFAIL)\)$/.test(failure) ? `no answer: ${refused().message}` : failure;
  }

  private allowsAddress(address: string): boolean {
    const bare = address.replace(/%.*$/, '').toLowerCase();
    if (this.allowedSubnets.check(bare, familyOf(bare))) return true;
    return isPublicAddress(bare) && !ownAddresses().has(bare);
  }

  /**
   * The connection options a post to `url` needs under the policy: none under `local`; under `public`, a
   * `lookup` that hands the connection only addresses the policy allows (so the address checked is the address
   * connected to). Throws an error with code TARGET_REFUSED when the url cannot be allowed at all (an address
   * literal that is not public, the sandbox's own origin).
   */
  connectOptions(url: URL): { lookup?: net.LookupFunction } {
    if (this.selfOrigins.has(url.origin)) throw refused('the target is this sandbox itself');
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (this.allowedHosts.has(host)) return {};
    if (this.policy === 'local') return {};
    if (net.isIP(host) !== 0) {
      if (!this.allowsAddress(host)) throw refused();
      return {};
    }
    const lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
      dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '');
        const allowed = addresses.filter((a) => this.allowsAddress(a.address));
        if (allowed.length === 0) return callback(refused(), '');
        if (options.all) callback(null, allowed);
        else callback(null, allowed[0]!.address, allowed[0]!.family);
      });
    };
    return { lookup: lookup as unknown as net.LookupFunction };
  }
}

function refused(message = 'the target is not an address this sandbox delivers to'): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code: TARGET_REFUSED });
}
