// The shapes the conformance suite passes between its modules: the run's settings (written by run.ts, read by
// the Dredd hooks), a transaction as Dredd gives it to the hooks, the per-transaction record the report reads,
// the state the hooks keep over a run, the per-transaction arrangements of arrange.ts, and the records a run
// made (cleanup.ts).
import type { ResponseValidator } from './validate-response.ts';

export interface ConformanceConfig {
  spec: string;
  server: string;
  apiKey: string;
  mode: 'mock' | 'real';
  /** Where gift card operations are served ({alt_base_url}); real mode only. */
  altServer?: string;
  /** https URL that answers the webhook ping with 2xx, used to create the webhook endpoint (real mode). */
  webhookUrl?: string;
  /** A key the server refuses (revoked or unknown), for the 401 AUTHENTICATION_FAILED transactions (real mode). */
  unknownKey?: string;
  /** A key whose IP allow-list excludes the suite's address, for the 403 IP_NOT_ALLOWED transactions (real mode). */
  ipBlockedKey?: string;
  /** A key allowed very few requests a minute (1 is best): the 429 transactions spend its window, then send it (real mode). */
  rateLimitedKey?: string;
  /** A key whose plan or subscription includes none of the gated products, for the 402 transactions (real mode). */
  noProductKey?: string;
  /**
   * The simulation API of a sandbox (spec/sandbox.yaml, `http://HOST:PORT/sandbox`): the suite uses it to arm
   * 500/502 faults, drain ops balances for 400 INSUFFICIENT_BALANCE and choose a KYC identity mismatch (real mode).
   */
  simulationUrl?: string;
  results: string;
  /**
   * The run's id (`conformance-20261128T041233-a1f3`), carried by every record the run creates (a customer's
   * `external_reference`, an endpoint's `description`, a card's or a quote's `reference`), so that each run uses
   * its own records and they can be told apart on a server that keeps them.
   */
  runId?: string;
  /** Real mode: what the run's set-up brought about (run.ts sets up once for the checks and Dredd); without it the hooks set up. */
  setup?: { resources: Record<string, string>; missing: Record<string, string> };
  /** Real mode: operations (`POST /cards`) whose balance the run could not bring into place, with the reason (balances.ts). */
  unfunded?: Record<string, string>;
}

export interface TransactionRecord {
  name: string;
  method: string;
  path: string;
  operationId?: string;
  status: string;
  example?: string;
  outcome: 'passed' | 'failed' | 'skipped';
  actualStatus?: number;
  message?: string;
  /** Fields of the response body the contract does not document (JSON Pointers): warnings, not failures. */
  undocumented?: string[];
  /** A failure's request (`POST http://.../cards {"amount":100,...}`), the body answered, and the curl command that replays it. */
  request?: string;
  response?: string;
  reproducer?: string;
}

/** The parts of a Dredd transaction the hooks use. */
export interface DreddTransaction {
  name: string;
  id: string;
  host: string;
  port: string;
  protocol: string;
  fullPath: string;
  request: { method: string; uri: string; headers: Record<string, string>; body: string };
  expected: { statusCode: string; headers: Record<string, string>; body?: string; bodySchema?: unknown };
  real?: { statusCode: number; headers: Record<string, string>; body: string };
  origin: { resourceName: string; actionName: string; exampleName: string };
  skip?: boolean;
  fail?: boolean | string;
  test?: { valid?: boolean; message?: string; status?: string };
  errors?: { severity: string; message: string }[];
  /** Added by these hooks. */
  conformance?: {
    path: string;
    status: string;
    example?: string;
    expectCode?: string;
    skipReason?: string;
    /** State brought about just before the transaction and undone just after (arrange.ts); when it cannot be, the transaction is skipped. */
    arrange?: Arrangement;
  };
}

/** What the hooks keep over a run. */
export interface HookState {
  config: ConformanceConfig;
  validator: ResponseValidator;
  records: TransactionRecord[];
  /** Real mode: codes of the resources set up, by resource key ('/cards/{code}', 'customer' ...). */
  resources: Map<string, string>;
  /** Real mode: why a resource could not be set up, by resource key. */
  missing: Map<string, string>;
  /** Real mode: what the set-up did, for the report. */
  setupLog: string[];
  /** Real mode: the set-up's requests the server refused (each with its answer and curl), for the report. */
  setupFailures: CheckResult[];
  /** Real mode: every record the run created, for the clean-up (cleanup.ts). */
  made: MadeRecord[];
}

/** A record the run created: where it is read (its path), and the key that made it. */
export interface MadeRecord {
  /** The create operation's path template (`/webhooks`). */
  collection: string;
  /** The record's own path template and concrete path (`/webhooks/{code}`, `/webhooks/8c27…`). */
  template: string;
  path: string;
  code: string;
  key: string;
}

/** State brought about just before one transaction and undone just after (arrange.ts). */
export type Arrangement =
  | { kind: 'exhaust'; probePath: string }
  | { kind: 'fault'; operationId: string; status: number }
  | { kind: 'drain' }
  | { kind: 'card-balance'; cardPath: string };

/**
 * One result of a check outside Dredd (a negative, security or isolation check; a workflow step), as the report
 * reads it: grouped by `group` (the check, or the workflow), one line each, failures with their reproducer.
 */
export interface CheckResult {
  /** The check (`invalid input`, `isolation` ...) or the workflow it belongs to. */
  group: string;
  /** What was checked: the operation and what was sent (`POST /cards/{code}/withdraw body /amount: 4.99 (minimum 5)`), or the step. */
  name: string;
  outcome: 'passed' | 'failed' | 'skipped';
  /** Why it failed (what was expected, what came), or why it was skipped. */
  message?: string;
  /** A failure's reproducer on one line: the curl command that shows it. */
  reproducer?: string;
}

/** A section of the report beside Dredd's: its title, its results, and lines about what it did not run and why. */
export interface ReportSection {
  title: string;
  results: CheckResult[];
  notes?: string[];
}

/** A request of the checks, as data that a check changes one part of (a field, a parameter, a header, the key). */
export interface RequestSpec {
  method: string;
  /** The contract's path template (`/cards/{code}/withdraw`). */
  template: string;
  params: Map<string, string>;
  query: URLSearchParams;
  /** Headers besides those `send` adds (the key, a fresh Idempotency-Key): `null` removes one it would add. */
  headers: Record<string, string | null>;
  /** The raw body, as sent. */
  body?: string;
  /** The API key; `null` sends no Authorization header. */
  key: string | null;
}

export interface Reply {
  status: number;
  headers: Headers;
  /** The JSON body, or the text when it is not JSON. */
  body: unknown;
}
