// Conformance suite: checks that a server answers as the contract says.
//
//   npm run conformance -- --server <url> --api-key <key> [--mock | --real] [--spec generated/openapi.json]
//                          [--only <operationId|path>,...] [--alt-server <url>] [--webhook-url <https url>]
//                          [--unknown-key <key>] [--ip-blocked-key <key>] [--rate-limited-key <key>]
//                          [--no-product-key <key>] [--simulation-url <url>] [--second-key <key>]
//                          [--checks <list>] [--seed <n>] [--checks-per-operation <n>] [--receiver-port <port>]
//                          [--fresh-api-key <key>] [--workflow <workflowId>,...] [--no-workflows] [--verbose]
//
// Against a real server: brings the ops balances the run spends from into place (balances.ts) and sets up the
// records the requests need, its own, named with the run's id (setup.ts). Then runs the negative, security and
// isolation checks (checks/), then Dredd over the contract with the hooks of hooks.cjs (strict Ajv validation of
// every response, errors provoked or requested from the mock), then the Arazzo workflows of spec/workflows
// (workflows.ts) with a webhook receiver (receiver.ts); afterwards removes what the run made and can be removed,
// and sets the balances and the account's settings back (cleanup.ts, balances.ts, settings.ts), so that the next
// run finds the server as this one did.
// Prints one report (report.ts): per operation, per check, per workflow, the clean-up, and a last line
// `N passed, N failed, N skipped`. Exits 1 on any failure. See docs/conformance.md.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CliError, closest, parseCli, runCli, UsageError } from '../lib/cli-parser.ts';
import { ROOT } from '../lib/paths.ts';
import type { CheckResult, ConformanceConfig, HookState, MadeRecord, ReportSection, TransactionRecord } from './types.ts';
import { fundRun, restoreBalances } from './balances.ts';
import { CHECKS, runChecks, type CheckName } from './checks/index.ts';
import { cleanUp } from './cleanup.ts';
import { automaticOutcomes, readSettings, restoreSettings, type Settings } from './settings.ts';
import { newRunId } from './resources.ts';
import { emptyState, setUp } from './setup.ts';
import { finalLine, runTotals, sectionLines, summarise, warningCount } from './report.ts';
import { listValues, selectOperations } from './select.ts';
import { createResponseValidator, type OpenApiBundle } from './validate-response.ts';
import { checkpoint, onInterrupt, trackChild } from './interrupt.ts';
import { pingTypeOf, startReceiver } from './receiver.ts';
import { mergeSimulationResults, SIMULATION_TITLE, simulationResults } from './simulation.ts';
import { readArazzo, runWorkflows, workflowFiles, workflowLines, workflowTotals } from './workflows.ts';
import type { JsonObject } from '../lib/pointer.ts';

const DREDD_BIN = path.join(ROOT, 'node_modules', 'dredd', 'bin', 'dredd');
const DEFAULT_SEED = 15;
const DEFAULT_PER_OPERATION = 12;
const HOOKS = path.join(import.meta.dirname, 'hooks.cjs');

const USAGE = `Usage: npm run conformance -- --server <url> --api-key <key> [options]

  --server <url>        base URL of the server under test (the path prefix, e.g. http://127.0.0.1:3000/v1)
  --api-key <key>       API key sent as Authorization: Bearer <key>
  --mock                the server is the Prism mock (or answers like it): request each documented
                        response with Prefer: code=<status>, example=<name>; no set-up
  --real                the server is a real implementation: set up state and provoke errors
                        (default: detected; a server that honours Prefer: code=... is taken for the mock)
  --spec <file>         the bundled contract (default: generated/openapi.json)
  --only <ids|paths>    check only these operations: operationIds (listCards) or paths (/cards/{code}),
                        comma-separated or repeated
  --alt-server <url>    base URL of the gift card operations ({alt_base_url})
  --webhook-url <url>   https URL at which the server reaches the run's webhook receiver (--receiver-port):
                        its public URL (a tunnel to 127.0.0.1:<receiver-port>, or a route),
                        used to create the webhook endpoint that customer creation needs and the
                        workflows' endpoints; real mode only (without it the workflows that need events
                        are skipped)
  --unknown-key <key>   a key the server refuses with 401 AUTHENTICATION_FAILED (revoked or unknown), for
                        the wrong-key transactions; real mode only (default: a random sk_test_ key)
  --ip-blocked-key <key>  a key whose IP allow-list excludes this machine: the 403 transactions send it and
                        expect IP_NOT_ALLOWED; real mode only (default: 403 is skipped)
  --rate-limited-key <key>  a key allowed very few requests a minute (1 is best): before each 429
                        transaction the suite spends its window, then sends it and expects
                        RATE_LIMIT_EXCEEDED; real mode only (default: 429 is skipped)
  --no-product-key <key>  a key whose plan or subscription includes none of the gated products: the 402
                        transactions send it and expect PLAN_UPGRADE_REQUIRED; real mode only
  --simulation-url <url>  the simulation API of a sandbox (spec/sandbox.yaml, e.g. http://127.0.0.1:4020/sandbox):
                        the suite arms 500/502 faults, drains ops balances for 400 INSUFFICIENT_BALANCE
                        and chooses a KYC identity mismatch for synchronize; real mode only; it also turns on
                        the workflows marked x-simulation
  --receiver-port <port>  the port of the webhook receiver the run hosts on 127.0.0.1 (default: a free one);
                        --webhook-url must reach it: the workflows' endpoints are <webhook-url>/workflows...
  --fresh-api-key <key>  a key of an account with no active webhook endpoint (the workflow that checks that
                        customers need one); the same key serves run after run
  --workflow <ids>      run only these workflows (workflowIds, comma-separated or repeated); with --only
                        and without --workflow no workflow runs, with --workflow and without --only no
                        operation is checked
  --no-workflows        check the operations only (a stateless server, such as an example server in real mode)
  --second-key <key>    a key of another account: the isolation checks use it on the suite's records,
                        which must be 404 to it and absent from its lists; real mode only (default: skipped)
  --checks <list>       the checks run before Dredd, comma-separated: ${CHECKS.join(', ')}, or none
                        (default: all; against a mock, only input, auth and methods apply)
  --seed <n>            the seed of the generated invalid and valid requests (default: ${DEFAULT_SEED}); the same seed
                        sends the same requests
  --checks-per-operation <n>  at most this many invalid requests per operation (default: ${DEFAULT_PER_OPERATION})
  --verbose             print Dredd's own output
Exits 1 when a check fails, 2 on bad arguments or a server that cannot be reached.`;

/** Refuses workflowIds that no document of spec/workflows defines, naming the nearest ones. */
function checkWorkflowIds(ids: readonly string[]): void {
  if (ids.length === 0) return;
  const known = workflowFiles().flatMap((f) => readArazzo(f).workflows.map((w) => w.workflowId));
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length) {
    const hints = unknown.map((id) => {
      const near = closest(id, known);
      return `${id}${near.length ? ` (did you mean ${near.slice(0, 3).join(', ')}?)` : ''}`;
    });
    throw new UsageError(`--workflow: unknown workflow ${hints.join(', ')}`);
  }
}

/** Fails in one line when nothing answers at the server's URL (any HTTP answer, even a 404, will do). */
export async function assertReachable(server: string): Promise<void> {
  try {
    const res = await fetch(server, { signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      (error as Error).name === 'TimeoutError' ? 'no answer within 10 s' : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new CliError(`cannot reach ${server} (${reason}): is the server running?`, 2);
  }
}

/** True when the server honours Prism's `Prefer: code=...` header (a real server ignores it). */
export async function looksLikeMock(bundle: OpenApiBundle, server: string, apiKey: string): Promise<boolean> {
  const validator = createResponseValidator(bundle);
  const probe = validator
    .operations()
    .filter((o) => o.method === 'GET' && !o.path.includes('{'))
    .map((o) => ({ o, status: o.statuses.find((s) => /^5\d\d$/.test(s)) }))
    .find((x) => x.status !== undefined);
  if (!probe) return false;
  try {
    const res = await fetch(server.replace(/\/$/, '') + probe.o.path, {
      headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json', Prefer: `code=${probe.status}` },
      signal: AbortSignal.timeout(10000),
    });
    await res.text();
    return String(res.status) === probe.status;
  } catch {
    return false;
  }
}

function runDredd(spec: string, server: string, configFile: string, logFile: string, verbose: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [DREDD_BIN, spec, server, '--hookfiles', HOOKS, '--loglevel', verbose ? 'warning' : 'error', '--color', 'false'],
      { cwd: ROOT, env: { ...process.env, CONFORMANCE_CONFIG: configFile }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    trackChild(child);
    const log = createWriteStream(logFile);
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        log.write(chunk);
        if (verbose) process.stdout.write(chunk);
      });
    }
    child.on('error', reject);
    child.on('close', (code) => log.end(() => resolve(code ?? 1)));
  });
}

/** The checks named by --checks (all by default; `none` for none). */
function checksOf(values: string[] | undefined): CheckName[] {
  if (!values) return [...CHECKS];
  const names = listValues(values);
  if (names.length === 1 && names[0] === 'none') return [];
  for (const name of names) {
    if (!(CHECKS as readonly string[]).includes(name)) {
      const near = closest(name, [...CHECKS, 'none']);
      throw new UsageError(
        `--checks: unknown check ${name}${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; give ${CHECKS.join(', ')} or none`,
      );
    }
  }
  return names as CheckName[];
}

function integerOption(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`${name} ${value} is not an integer >= ${min}`);
  return Number(value);
}

/** The checks' section; a failure of the checks themselves (their set-up threw) is one failed result. */
async function checksSection(
  config: ConformanceConfig,
  full: OpenApiBundle,
  selected: OpenApiBundle,
  checks: CheckName[],
  options: Parameters<typeof runChecks>[4],
  prepared: Parameters<typeof runChecks>[5],
): Promise<ReportSection> {
  try {
    return await runChecks(config, full, selected, checks, options, prepared);
  } catch (error) {
    return {
      title: 'Negative, security and isolation checks',
      results: [{ group: 'checks', name: 'the run', outcome: 'failed', message: (error as Error).stack ?? String(error) }],
    };
  }
}

/** What the command line asks for, checked: the server, the key, the contract and what of it runs. */
interface RunOptions {
  values: Record<string, string | string[] | boolean | undefined> & CliValues;
  server: string;
  apiKey: string;
  simulationUrl: string | undefined;
  checks: CheckName[];
  seed: number;
  perOperation: number;
  spec: string;
  full: OpenApiBundle;
  only: string[];
  workflowIds: string[];
  /** --only and --workflow select what runs: given one of them, the other part runs nothing. */
  runOperations: boolean;
  runFlows: boolean;
  /** The contract with the --only operations (the whole contract without --only), and their names. */
  bundle: OpenApiBundle;
  selected: string[];
  receiverPort: number;
}

type CliValues = {
  server?: string;
  'api-key'?: string;
  mock?: boolean;
  real?: boolean;
  spec?: string;
  only?: string[];
  'alt-server'?: string;
  'webhook-url'?: string;
  'unknown-key'?: string;
  'ip-blocked-key'?: string;
  'rate-limited-key'?: string;
  'no-product-key'?: string;
  'simulation-url'?: string;
  'receiver-port'?: string;
  'fresh-api-key'?: string;
  workflow?: string[];
  'no-workflows'?: boolean;
  'second-key'?: string;
  checks?: string[];
  seed?: string;
  'checks-per-operation'?: string;
  verbose?: boolean;
};

const httpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/** The run's options, or undefined when the command line asked for the usage. */
function runOptions(argv: string[]): RunOptions | undefined {
  const args = parseCli(argv, {
    usage: USAGE,
    options: {
      server: { type: 'string' },
      'api-key': { type: 'string' },
      mock: { type: 'boolean', default: false },
      real: { type: 'boolean', default: false },
      spec: { type: 'string' },
      only: { type: 'string', multiple: true },
      'alt-server': { type: 'string' },
      'webhook-url': { type: 'string' },
      'unknown-key': { type: 'string' },
      'ip-blocked-key': { type: 'string' },
      'rate-limited-key': { type: 'string' },
      'no-product-key': { type: 'string' },
      'simulation-url': { type: 'string' },
      'receiver-port': { type: 'string' },
      'fresh-api-key': { type: 'string' },
      workflow: { type: 'string', multiple: true },
      'no-workflows': { type: 'boolean', default: false },
      'second-key': { type: 'string' },
      checks: { type: 'string', multiple: true },
      seed: { type: 'string' },
      'checks-per-operation': { type: 'string' },
      verbose: { type: 'boolean', default: false },
    },
    required: ['server', 'api-key'],
  });
  if (!args) return undefined;
  const values = args.values as RunOptions['values'];
  if (values.mock && values.real) throw new UsageError('give --mock or --real, not both');
  const server = values.server!;
  if (!httpUrl(server)) throw new UsageError(`--server ${server} is not an http:// or https:// URL`);
  const simulationUrl = values['simulation-url'];
  if (simulationUrl !== undefined && !httpUrl(simulationUrl)) {
    throw new UsageError(`--simulation-url ${simulationUrl} is not an http:// or https:// URL`);
  }
  const spec = path.resolve(values.spec ?? process.env.CONFORMANCE_SPEC ?? path.join(ROOT, 'generated', 'openapi.json'));
  if (!existsSync(spec)) throw new UsageError(`the contract bundle ${spec} does not exist: run \`npm run build\` first, or pass --spec`);
  const full = JSON.parse(readFileSync(spec, 'utf8')) as OpenApiBundle;
  const only = values.only ? listValues(values.only) : [];
  const workflowIds = values.workflow ? listValues(values.workflow) : [];
  checkWorkflowIds(workflowIds);
  if (values['no-workflows'] && workflowIds.length) throw new UsageError('give --workflow or --no-workflows, not both');
  const receiverPort = values['receiver-port'] === undefined ? 0 : Number(values['receiver-port']);
  if (!Number.isInteger(receiverPort) || receiverPort < 0 || receiverPort > 65535)
    throw new UsageError(`--receiver-port ${values['receiver-port']} is not a port number`);
  const { bundle, selected } = only.length ? selectOperations(full, only) : { bundle: full, selected: [] };
  return {
    values,
    server,
    apiKey: values['api-key']!,
    simulationUrl,
    checks: checksOf(values.checks),
    seed: integerOption('--seed', values.seed, DEFAULT_SEED, 0),
    perOperation: integerOption('--checks-per-operation', values['checks-per-operation'], DEFAULT_PER_OPERATION, 1),
    spec,
    full,
    only,
    workflowIds,
    runOperations: only.length > 0 || workflowIds.length === 0,
    runFlows: !values['no-workflows'] && (workflowIds.length > 0 || only.length === 0),
    bundle,
    selected,
    receiverPort,
  };
}

/** Mock or real: as asked, or as the server answers Prism's `Prefer: code=...`. */
async function modeOf(options: RunOptions): Promise<'mock' | 'real'> {
  if (options.values.mock) return 'mock';
  if (options.values.real) return 'real';
  const mode = (await looksLikeMock(options.full, options.server, options.apiKey)) ? 'mock' : 'real';
  console.log(
    `Server ${options.server} ${mode === 'mock' ? 'honours Prefer: code=... -> mock mode' : 'ignores Prefer: code=... -> real mode'} (force with --mock or --real).`,
  );
  return mode;
}

function configOf(options: RunOptions, mode: 'mock' | 'real', dir: string): ConformanceConfig {
  const { values } = options;
  return {
    spec: options.spec,
    server: options.server,
    apiKey: options.apiKey,
    mode,
    altServer: values['alt-server'],
    webhookUrl: values['webhook-url'],
    unknownKey: values['unknown-key'],
    ipBlockedKey: values['ip-blocked-key'],
    rateLimitedKey: values['rate-limited-key'],
    noProductKey: values['no-product-key'],
    simulationUrl: options.simulationUrl,
    results: path.join(dir, 'results.json'),
    ...(mode === 'real' ? { runId: newRunId() } : {}),
  };
}

/**
 * What the run changed, and its undoing: every record it made (the set-up, the checks, Dredd's transactions, the
 * workflows), removed where it can be, and the account's settings and balances set back. Once, even when the run
 * stops on an error or a signal (interrupt.ts), whichever asks first.
 */
class RunCleanup {
  readonly made: MadeRecord[] = [];
  /** The balances before the run. */
  start: Map<string, number> | undefined;
  settings: Settings | undefined;
  /** Whether Dredd's records are in `made` already (read from its results), or still only in its file. */
  dreddMadeRead = false;
  private tidying: Promise<string[]> | undefined;
  private readonly config: ConformanceConfig;
  private readonly validator: ReturnType<typeof createResponseValidator>;

  constructor(config: ConformanceConfig, validator: ReturnType<typeof createResponseValidator>) {
    this.config = config;
    this.validator = validator;
  }

  get started(): boolean {
    return this.tidying !== undefined;
  }

  run(): Promise<string[]> {
    this.tidying ??= this.once();
    return this.tidying;
  }

  private async once(): Promise<string[]> {
    const { config } = this;
    if (config.mode !== 'real') return [];
    // Stopped during Dredd: the records its transactions made so far, which the hooks write as they go.
    if (!this.dreddMadeRead && existsSync(`${config.results}.made`)) {
      try {
        this.made.push(...(JSON.parse(readFileSync(`${config.results}.made`, 'utf8')) as MadeRecord[]));
      } catch {
        // written half: the records of Dredd's transactions are then not known
      }
    }
    const removal = await cleanUp(config, this.validator, this.made);
    const none = { lines: [], problems: [] };
    const account = this.settings ? await restoreSettings(config, this.settings) : none;
    const balances = this.start ? await restoreBalances(config, this.start) : none;
    const problems = [...account.problems, ...balances.problems].map((p) => `  could not set back: ${p}`);
    return ['', ...removal.lines, ...account.lines, ...balances.lines, ...problems];
  }
}

/** What a real run arranges before its checks: settings read (and outcomes made automatic), balances, the set-up. */
interface Arranged {
  lines: string[];
  prepared?: { state: HookState; setup: Awaited<ReturnType<typeof setUp>> };
  state?: HookState;
}

async function arrangeRealRun(
  config: ConformanceConfig,
  validator: ReturnType<typeof createResponseValidator>,
  cleanup: RunCleanup,
  runOperations: boolean,
): Promise<Arranged> {
  const lines: string[] = [];
  // Read before anything moves them: they are set back to these values afterwards.
  const read = await readSettings(config);
  if (typeof read === 'string') lines.push(`account settings: ${read}; they will not be set back`);
  else cleanup.settings = read;
  if (cleanup.settings?.manual === true && runOperations) {
    // The set-up waits for cards and top-ups to complete, which an account whose outcomes wait to be chosen never does.
    const automatic = await automaticOutcomes(config);
    lines.push(automatic ?? 'account settings: manual outcomes turned off for the run (PATCH /account); set back afterwards');
  }
  const funding = await fundRun(config, validator, runOperations);
  cleanup.start = funding.start;
  config.unfunded = funding.unfunded;
  lines.push(...funding.lines);
  if (!runOperations) return { lines };
  // One set-up for the checks and for Dredd: one set of records, and each failure reported once.
  const state = emptyState(config, validator);
  state.made = cleanup.made;
  let prepared: Arranged['prepared'];
  try {
    prepared = { state, setup: await setUp(state) };
  } catch (error) {
    // A fault of the set-up itself (not a refusal, which it records): what needs its records is skipped.
    state.setupFailures.push({ group: 'set-up', name: 'the set-up', outcome: 'failed', message: (error as Error).stack ?? String(error) });
  }
  config.setup = { resources: Object.fromEntries(state.resources), missing: Object.fromEntries(state.missing) };
  lines.push(...state.setupLog);
  return { lines, ...(prepared ? { prepared } : {}), state };
}

/** What the Dredd hooks wrote: each transaction's record, their set-up's log and failures, the records they made. */
interface HookResults {
  records: TransactionRecord[];
  setup: string[];
  setupFailures?: CheckResult[];
  made?: MadeRecord[];
  simulation?: CheckResult[];
}

/** The run's parts in turn: the checks, Dredd, the workflows; with what each took (the checks' time from `started`, the set-up included). */
async function runParts(
  started: number,
  options: RunOptions,
  config: ConformanceConfig,
  arranged: Arranged,
  files: { configFile: string; logFile: string; dreddSpec: string },
  receiver: Awaited<ReturnType<typeof startReceiver>> | undefined,
  made: MadeRecord[],
) {
  const { values, runOperations } = options;
  await checkpoint();
  writeFileSync(files.configFile, JSON.stringify(config));
  const sections: ReportSection[] = [];
  if (runOperations && options.checks.length) {
    const checkOptions = { secondKey: values['second-key'], seed: options.seed, perOperation: options.perOperation };
    sections.push(await checksSection(config, options.full, options.bundle, options.checks, checkOptions, arranged.prepared));
  }
  const checksSeconds = (Date.now() - started) / 1000;
  await checkpoint();
  const verbose = values.verbose ?? false;
  const dreddExit = runOperations ? await runDredd(files.dreddSpec, options.server, files.configFile, files.logFile, verbose) : 0;
  if (!runOperations) writeFileSync(files.logFile, '');
  const dreddSeconds = (Date.now() - started) / 1000 - checksSeconds;
  await checkpoint();
  const workflows = options.runFlows
    ? await runWorkflows({
        server: options.server,
        apiKey: options.apiKey,
        mode: config.mode,
        bundle: options.full as JsonObject,
        receiver,
        simulationUrl: options.simulationUrl,
        made,
        ...(config.runId ? { runId: config.runId } : {}),
        ...(values['webhook-url'] ? { webhookUrl: values['webhook-url'] } : {}),
        ...(values['fresh-api-key'] ? { freshApiKey: values['fresh-api-key'] } : {}),
        ...(options.workflowIds.length ? { only: options.workflowIds } : {}),
        verbose,
      })
    : [];
  const results =
    runOperations && existsSync(config.results) ? (JSON.parse(readFileSync(config.results, 'utf8')) as HookResults) : undefined;
  return { sections, checksSeconds, dreddExit, dreddSeconds, workflows, results };
}

type PartsDone = Awaited<ReturnType<typeof runParts>>;

/** The report, from what the parts gave and the clean-up did; returns the exit code. */
function report(
  options: RunOptions,
  done: PartsDone,
  setupLines: string[],
  setupSection: ReportSection[],
  cleanupLines: string[],
  seconds: number,
  logFile: string,
): number {
  const { sections, results, workflows, dreddExit, checksSeconds, dreddSeconds } = done;
  if (options.runOperations && !results) {
    console.error(readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n'));
    console.error(`Dredd exited with ${dreddExit} before the hooks wrote their results (see its output above).`);
    for (const section of [...setupSection, ...sections]) for (const line of sectionLines(section)) console.log(line);
    for (const line of cleanupLines) console.log(line);
    const t = runTotals([], [...setupSection, ...sections]);
    console.log(finalLine({ ...t, failed: t.failed + 1 }));
    return 1;
  }
  const records = results?.records ?? [];
  for (const line of [...setupLines, ...(results?.setup ?? [])]) console.log(line);
  for (const section of setupSection) for (const line of sectionLines(section)) console.log(line);
  if (options.runOperations) for (const line of summarise(records, createResponseValidator(options.bundle))) console.log(line);
  for (const section of sections) for (const line of sectionLines(section)) console.log(line);
  for (const line of workflowLines(workflows)) console.log(line);
  for (const line of cleanupLines) console.log(line);
  const t = runTotals(records, [...setupSection, ...sections]);
  const w = workflowTotals(workflows);
  t.passed += w.passed;
  t.failed += w.failed;
  t.skipped += w.skipped;
  const log = readFileSync(logFile, 'utf8');
  const hookErrors = log.split('\n').filter((l) => /^error: |Hook errored|set-up failed/i.test(l));
  if (dreddExit !== 0 && t.failed === 0) {
    // Dredd failed for a reason the hooks did not record (a hook error, an unreadable contract ...).
    console.error(`\nDredd exited with ${dreddExit}:\n${(hookErrors.length ? hookErrors : log.split('\n').slice(-20)).join('\n')}`);
    t.failed += 1;
  }
  const warnings = warningCount(records);
  const noun = `undocumented field${warnings === 1 ? ' (warning)' : 's (warnings)'}`;
  console.log(`\n${warnings} ${noun}${warnings ? ': see Warnings above; they do not fail the run' : ''}.`);
  const parts = [
    ...(sections.length ? [`checks ${checksSeconds.toFixed(1)} s`] : []),
    ...(options.runOperations ? [`Dredd ${dreddSeconds.toFixed(1)} s`] : []),
    ...(workflows.length ? [`workflows ${(seconds - checksSeconds - dreddSeconds).toFixed(1)} s`] : []),
  ];
  console.log(`Took ${seconds.toFixed(1)} s${parts.length > 1 ? ` (${parts.join(', ')})` : ''}.`);
  console.log(finalLine(t));
  return t.failed > 0 ? 1 : 0;
}

/** The run itself, once the receiver and the working folder exist: arrange, run the parts, clean up, report. */
async function conduct(
  options: RunOptions,
  config: ConformanceConfig,
  validator: ReturnType<typeof createResponseValidator>,
  cleanup: RunCleanup,
  receiver: Awaited<ReturnType<typeof startReceiver>> | undefined,
  dir: string,
): Promise<number> {
  const { only, spec } = options;
  const files = {
    configFile: path.join(dir, 'config.json'),
    logFile: path.join(dir, 'dredd.log'),
    // Dredd reads the selected operations only; the hooks keep the whole contract for their set-up.
    dreddSpec: only.length ? path.join(dir, 'selected.json') : spec,
  };
  if (only.length) writeFileSync(files.dreddSpec, JSON.stringify(options.bundle));
  const started = Date.now();
  console.log(
    `Conformance of ${options.server} (${config.mode} mode) against ${path.relative(ROOT, spec) || spec}${only.length ? `, only ${options.selected.join(', ')}` : ''}${config.runId ? `, run ${config.runId}` : ''} ...`,
  );
  const arranged: Arranged =
    config.mode === 'real' ? await arrangeRealRun(config, validator, cleanup, options.runOperations) : { lines: [] };
  const setupFailures: CheckResult[] = [...(arranged.state?.setupFailures ?? [])];
  const done = await runParts(started, options, config, arranged, files, receiver, cleanup.made);
  await checkpoint();
  cleanup.made.push(...(done.results?.made ?? []));
  cleanup.dreddMadeRead = true;
  setupFailures.push(...(done.results?.setupFailures ?? []));
  const cleanupLines = await cleanup.run();
  const seconds = (Date.now() - started) / 1000;
  const setupSection: ReportSection[] = setupFailures.length
    ? [{ title: 'Set-up (the records the requests need)', results: setupFailures }]
    : [];
  // Every answer of the simulation API the run read (this process's and the Dredd hooks'), against spec/sandbox.yaml.
  const simulation = mergeSimulationResults(simulationResults(), done.results?.simulation ?? []);
  if (simulation.length) done.sections.push({ title: SIMULATION_TITLE, results: simulation });
  return report(options, done, arranged.lines, setupSection, cleanupLines, seconds, files.logFile);
}

export async function main(argv: string[]): Promise<number> {
  const options = runOptions(argv);
  if (!options) return 0;
  await assertReachable(options.server);
  const mode = await modeOf(options);
  const receiver = mode === 'real' ? await startReceiver(options.receiverPort, pingTypeOf(options.full as JsonObject)) : undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'conformance-'));
  const validator = createResponseValidator(options.full);
  const config = configOf(options, mode, dir);
  const cleanup = new RunCleanup(config, validator);
  const stopHandling = onInterrupt(async () => {
    const lines = await cleanup.run();
    rmSync(dir, { recursive: true, force: true });
    await receiver?.close();
    return lines;
  });
  try {
    return await conduct(options, config, validator, cleanup, receiver, dir);
  } finally {
    if (!cleanup.started)
      for (const line of await cleanup.run().catch((error: Error) => [`clean-up failed: ${error.message}`])) console.log(line);
    await checkpoint();
    stopHandling();
    rmSync(dir, { recursive: true, force: true });
    await receiver?.close();
  }
}

if (import.meta.main) await runCli('conformance', USAGE, () => main(process.argv.slice(2)));
