// The behavioural part of a conformance run: the Arazzo workflows of spec/workflows/, run by `redocly respect`
// against the server (and the sandbox's simulation API for the workflows marked `x-simulation`), then the
// events each workflow found in the event list checked at the run's webhook receiver (receiver.ts).
//
// A workflow is skipped, with the reason, when the run lacks what it needs: the simulation API (`x-simulation`,
// the reason it gives), or one of its required inputs. Against the stateless mock every workflow is reported as
// not applicable. The result of each workflow lists its steps (the last attempt of a retried step, a called
// workflow's steps under its step id) as passed, failed (the checks that failed, the request, the body answered
// and a curl command that replays it) or not run. The run's id goes to the workflows as the input `run_id`, and
// the records their requests created (seen by a recording proxy, recorder.ts) are handed to the run's clean-up
// (cleanup.ts).
import { spawn } from 'node:child_process';
import { trackChild } from './interrupt.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { REDOCLY_BIN, ROOT } from '../lib/paths.ts';
import type { JsonObject } from '../lib/pointer.ts';
import { madeRecord } from './cleanup.ts';
import { newRunId } from './resources.ts';
import { bodyText, curlOf } from './http.ts';
import { EventChecker, type EventCheck, type Receiver } from './receiver.ts';
import { startRecorder, type Exchange } from './recorder.ts';
import type { MadeRecord } from './types.ts';
import { createResponseValidator, formatErrors, matchPathTemplate, type ResponseValidator } from './validate-response.ts';

export const WORKFLOWS_DIR = path.join(ROOT, 'spec', 'workflows');

export type Outcome = 'passed' | 'failed' | 'skipped' | 'not applicable';

export interface StepResult {
  /** The step id; a called workflow's steps are `callerStep › step`. */
  step: string;
  outcome: 'passed' | 'failed' | 'not run';
  /** The failed checks, one per line. */
  message?: string;
}

export interface WorkflowResult {
  file: string;
  workflowId: string;
  summary: string;
  outcome: Outcome;
  /** Why it was skipped or not applicable, or what failed. */
  reason?: string;
  /** The rules of the interface document it checks (`x-rules`). */
  rules: { section: string; rule: string }[];
  steps: StepResult[];
  /** The events it found in the event list, as they reached the receiver. */
  events: EventCheck[];
}

/** What a run can give the workflows. Every field but `server`, `apiKey` and `mode` is optional. */
export interface WorkflowRunOptions {
  server: string;
  apiKey: string;
  mode: 'mock' | 'real';
  simulationUrl?: string;
  /** The receiver the run hosts, and the https base url at which the server reaches it. */
  receiver?: Receiver;
  webhookUrl?: string;
  /** A key of an account with no active webhook endpoint. */
  freshApiKey?: string;
  /** The bundle whose event schemas the deliveries are checked against. */
  bundle: JsonObject;
  /** Arazzo documents to run (default: every spec/workflows/*.arazzo.yaml). */
  files?: string[];
  /** Only these workflowIds (and what they call). */
  only?: string[];
  verbose?: boolean;
  /** The run's id, given to the workflows as the input `run_id` (the references of the records they create); a new one by default. */
  runId?: string;
  /** Where the records the workflows' requests created are added, for the run's clean-up. */
  made?: MadeRecord[];
}

interface ArazzoStep {
  stepId: string;
  workflowId?: string;
  operationId?: string;
}
interface ArazzoWorkflow {
  workflowId: string;
  summary?: string;
  inputs?: { $ref?: string; required?: string[] };
  steps: ArazzoStep[];
  'x-simulation'?: string;
  'x-rules'?: { section: string; rule: string }[];
}
export interface ArazzoDocument {
  workflows: ArazzoWorkflow[];
  components?: { inputs?: Record<string, { required?: string[] }> };
}

/** The command-line option that provides each input a workflow may require. */
export const INPUT_SOURCES: Record<string, string> = {
  api_key: '--api-key',
  endpoint_code: '--webhook-url (the run registers its receiver)',
  webhook_url: '--webhook-url',
  refusing_webhook_url: '--webhook-url',
  failing_webhook_url: '--webhook-url',
  fresh_api_key: '--fresh-api-key',
};

export function workflowFiles(dir = WORKFLOWS_DIR): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.arazzo.yaml'))
    .sort()
    .map((f) => path.join(dir, f));
}

export function readArazzo(file: string): ArazzoDocument {
  return parse(fs.readFileSync(file, 'utf8')) as ArazzoDocument;
}

/** The inputs a workflow requires (its `inputs.required`, through a `$ref` to `components.inputs`). */
export function requiredInputs(doc: ArazzoDocument, workflow: ArazzoWorkflow): string[] {
  const ref = workflow.inputs?.$ref?.match(/^#\/components\/inputs\/(.+)$/)?.[1];
  const schema = ref ? doc.components?.inputs?.[ref] : workflow.inputs;
  return schema?.required ?? [];
}

/** Why a workflow cannot run with these inputs and this simulation API (undefined when it can). */
function skipReason(
  doc: ArazzoDocument,
  workflow: ArazzoWorkflow,
  inputs: Record<string, string>,
  simulation: boolean,
): string | undefined {
  if (workflow['x-simulation'] && !simulation) return `needs the simulation API (--simulation-url): ${workflow['x-simulation']}`;
  const missing = requiredInputs(doc, workflow).filter((name) => inputs[name] === undefined);
  if (missing.length) return `needs ${missing.map((m) => `${m} (${INPUT_SOURCES[m] ?? `input ${m}`})`).join(', ')}`;
  return undefined;
}

/** Skip reasons of every workflow of a document; a workflow that calls a skipped one is skipped too. */
export function planWorkflows(doc: ArazzoDocument, inputs: Record<string, string>, simulation: boolean): Map<string, string | undefined> {
  const plan = new Map(doc.workflows.map((w) => [w.workflowId, skipReason(doc, w, inputs, simulation)]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const w of doc.workflows) {
      if (plan.get(w.workflowId)) continue;
      const callee = w.steps.find((s) => s.workflowId && plan.get(s.workflowId));
      if (callee) {
        plan.set(w.workflowId, `calls workflow ${callee.workflowId!}, which ${plan.get(callee.workflowId!)!}`);
        changed = true;
      }
    }
  }
  return plan;
}

interface ReportStep {
  type: 'step' | 'workflow';
  stepId?: string;
  workflowId?: string;
  status: string;
  request?: { method: string; url: string; headers?: Record<string, string>; body?: unknown };
  response?: { statusCode: number; body?: unknown; headers?: Record<string, string> };
  checks?: { name: string; passed: boolean; message?: string; condition?: string; severity?: string }[];
  executedSteps?: ReportStep[];
}
interface ReportWorkflow {
  workflowId: string;
  status: string;
  executedSteps: ReportStep[];
}
export interface RespectReport {
  files: Record<string, { executedWorkflows: ReportWorkflow[] }>;
}

function failedChecks(step: ReportStep): string {
  return (step.checks ?? [])
    .filter((c) => !c.passed && c.severity !== 'off' && c.severity !== 'warn')
    .map((c) => {
      const what = c.condition ? `${c.name}: ${c.condition}` : c.name;
      const detail =
        c.message && !c.message.startsWith('Checking ') ? ` (${c.message.split('\n').filter(Boolean).slice(0, 3).join(' ')})` : '';
      return what + detail;
    })
    .join('\n');
}

/** Problems of a step's response against the contract (the same validator as the per-operation checks). */
export type ResponseCheck = (step: ReportStep) => string[];

/**
 * Checks responses of the partner API at `server` with the contract's validator: status documented, body valid
 * against the response schema, open as the contract's responses are (Respect's own schema check closes every
 * object, so it is off).
 */
export function contractResponseCheck(bundle: JsonObject, server: string): ResponseCheck {
  const validator: ResponseValidator = createResponseValidator(bundle);
  const base = new URL(server).pathname.replace(/\/$/, '');
  return (step) => {
    if (!step.request || !step.response || !step.request.url.startsWith(server)) return [];
    const concrete = new URL(step.request.url).pathname.slice(base.length);
    const template = matchPathTemplate(bundle, step.request.method, concrete);
    if (!template) return [`${step.request.method.toUpperCase()} ${concrete}: no operation of the contract`];
    const errors = validator.validate(
      step.request.method,
      template,
      step.response.statusCode,
      step.response.body,
      step.response.headers?.['content-type'],
    );
    return errors.length
      ? [`response ${step.response.statusCode} of ${step.request.method.toUpperCase()} ${template}:\n${formatErrors(errors)}`]
      : [];
  };
}

/** The steps of a reported workflow: the last attempt of each step, a called workflow's steps under its step. */
export function stepResults(executed: readonly ReportStep[], check: ResponseCheck = () => [], prefix = ''): StepResult[] {
  const last = new Map<string, StepResult>();
  for (const step of executed) {
    const id = `${prefix}${step.stepId ?? step.workflowId ?? '?'}`;
    if (step.type === 'workflow') {
      for (const inner of stepResults(step.executedSteps ?? [], check, `${id} › `)) last.set(inner.step, inner);
      if (step.status !== 'success' && ![...last.values()].some((s) => s.step.startsWith(`${id} › `) && s.outcome === 'failed')) {
        last.set(id, { step: id, outcome: 'failed', message: `workflow ${step.workflowId ?? ''} ${step.status}` });
      }
      continue;
    }
    last.delete(id); // a retried step: keep only its last attempt, in its last place
    const problems = [...(step.status === 'success' ? [] : [failedChecks(step) || step.status]), ...check(step)];
    if (problems.length) problems.push(...exchange(step));
    last.set(id, problems.length === 0 ? { step: id, outcome: 'passed' } : { step: id, outcome: 'failed', message: problems.join('\n') });
  }
  return [...last.values()];
}

/** A failed step's request, the body answered and the curl command that replays it (none when it sent nothing). */
function exchange(step: ReportStep): string[] {
  if (!step.request) return [];
  const method = step.request.method.toUpperCase();
  const body =
    step.request.body === undefined || step.request.body === ''
      ? undefined
      : typeof step.request.body === 'string'
        ? step.request.body
        : JSON.stringify(step.request.body);
  const headers = Object.fromEntries(
    Object.entries(step.request.headers ?? {}).filter(([k]) => /^(authorization|content-type|idempotency-key)$/i.test(k)),
  );
  return [
    `request: ${method} ${step.request.url}${body ? ` ${body}` : ''}`,
    ...(step.response ? [`answered ${step.response.statusCode}: ${bodyText(step.response.body)}`] : []),
    curlOf(method, step.request.url, headers, body),
  ];
}

/** The records the requests that went through the recorder made, each with the key it was made with. */
export function madeThrough(exchanges: readonly Exchange[], bundle: JsonObject, validator: ResponseValidator): MadeRecord[] {
  const made: MadeRecord[] = [];
  for (const exchange of exchanges) {
    const key = exchange.authorization?.replace(/^Bearer /, '');
    const template = matchPathTemplate(bundle, exchange.method, exchange.path);
    const record = key && template ? madeRecord(validator, exchange.method, template, exchange.status, exchange.body, key) : undefined;
    if (record) made.push(record);
  }
  return made;
}

/** Points the report's requests back at the server: they were sent to the recorder in front of it. */
function throughServer(steps: ReportStep[], recorder: string, server: string): void {
  for (const step of steps) {
    if (step.request?.url.startsWith(recorder)) step.request.url = server.replace(/\/$/, '') + step.request.url.slice(recorder.length);
    throughServer(step.executedSteps ?? [], recorder, server);
  }
}

/**
 * The events a workflow found: the first item of each of its own event-list steps (`GET /events?type=...&limit=1`)
 * that passed. A workflow it runs checks its events when it runs on its own (Respect reports every run of a called
 * workflow with the steps of its last run).
 */
export function eventsFound(executed: readonly ReportStep[]): { id: string; type: string }[] {
  const found = new Map<string, string>();
  for (const step of executed) {
    if (step.type === 'workflow') continue;
    if (step.status !== 'success' || step.request?.method.toUpperCase() !== 'GET' || !/\/events(\?|$)/.test(step.request.url)) continue;
    const first = (step.response?.body as { data?: { id?: unknown; type?: unknown }[] } | undefined)?.data?.[0];
    if (typeof first?.id === 'string' && typeof first.type === 'string') found.set(first.id, first.type);
  }
  return [...found].map(([id, type]) => ({ id, type }));
}

/** Every webhook secret the server returned during the run (creations and rotations). */
export function secretsSeen(executed: readonly ReportStep[]): string[] {
  const secrets: string[] = [];
  for (const step of executed) {
    if (step.type === 'workflow') secrets.push(...secretsSeen(step.executedSteps ?? []));
    const secret = (step.response?.body as { data?: { secret?: unknown } } | undefined)?.data?.secret;
    if (typeof secret === 'string' && secret.startsWith('whsec_')) secrets.push(secret);
  }
  return secrets;
}

function runRespect(args: string[], verbose: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [REDOCLY_BIN, 'respect', ...args], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    trackChild(child);
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (verbose) process.stdout.write(chunk);
      });
    }
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The endpoint the run registers for its receiver: every event, at `<webhookUrl>/workflows`. */
async function registerEndpoint(server: string, apiKey: string, url: string, runId?: string): Promise<{ code: string; secret: string }> {
  const res = await fetch(`${server.replace(/\/$/, '')}/webhooks`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url, events: ['*'], description: `Conformance workflows receiver${runId ? ` (run ${runId})` : ''}` }),
    signal: AbortSignal.timeout(20_000),
  });
  const body = (await res.json().catch(() => null)) as { data?: { code?: string; secret?: string } } | null;
  if (res.status !== 200 || !body?.data?.code || !body.data.secret)
    throw new Error(`registering the receiver (POST /webhooks ${url}) answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return { code: body.data.code, secret: body.data.secret };
}

async function deleteEndpoint(server: string, apiKey: string, code: string): Promise<void> {
  await fetch(`${server.replace(/\/$/, '')}/webhooks/${code}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${apiKey}` },
    signal: AbortSignal.timeout(20_000),
  })
    .then((r) => r.body?.cancel())
    .catch(() => undefined);
}

/**
 * How long the events the workflows found are waited for at the receiver, once Respect is done, before a missing
 * one fails: the same bound as the workflows' own wait for a delivery (`waitForDelivery`, 60 polls 0.5 s apart).
 * The contract gives deliveries no deadline, and a loaded machine or server can take seconds to make one; an
 * event that never arrives still fails, 30 s later.
 */
const EVENTS_ARRIVAL_MS = 30_000;

/** Waits until every event has reached the receiver, or `ms` passed. */
async function eventsArrived(receiver: Receiver, ids: string[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  const seen = () => new Set(receiver.deliveries.map((d) => d.body.match(/"id"\s*:\s*"(evt_[^"]+)"/)?.[1]));
  while (Date.now() < deadline && !ids.every((id) => seen().has(id))) await new Promise((r) => setTimeout(r, 100));
}

/** A workflow's result before its outcome: where it is, what it is, the rules it checks. */
function baseResult(file: string, w: ArazzoWorkflow): Omit<WorkflowResult, 'outcome'> {
  return {
    file: path.relative(ROOT, file),
    workflowId: w.workflowId,
    summary: w.summary ?? '',
    rules: w['x-rules'] ?? [],
    steps: [],
    events: [],
  };
}

/** The inputs of the run, and the endpoint registered for its receiver (or why it could not be). */
interface RunInputs {
  inputs: Record<string, string>;
  /** The path under which the receiver sees the run's endpoints. */
  pathPrefix: string;
  endpoint?: { code: string; secret: string };
  /** Why the receiver could not be registered: the workflows that need it fail with it. */
  registration?: string;
}

/** The workflows' inputs; with a receiver, its endpoint registered and the addresses of the run's other endpoints. */
async function runInputs(options: WorkflowRunOptions): Promise<RunInputs> {
  // A workflow that looks its customers up by reference needs an id of its own run (on a server that keeps every run's).
  const inputs: Record<string, string> = { api_key: options.apiKey, run_id: options.runId ?? newRunId() };
  if (options.freshApiKey) inputs.fresh_api_key = options.freshApiKey;
  if (!options.webhookUrl || !options.receiver) return { inputs, pathPrefix: '/workflows' };
  const hook = `${options.webhookUrl.replace(/\/$/, '')}/workflows`;
  // The receiver sees the url's path (a route or a tunnel keeps it): the run's endpoints are under this one.
  const pathPrefix = new URL(hook).pathname;
  Object.assign(inputs, { webhook_url: `${hook}/extra`, refusing_webhook_url: `${hook}/refuse`, failing_webhook_url: `${hook}/flaky` });
  try {
    const endpoint = await registerEndpoint(options.server, options.apiKey, hook, options.runId);
    inputs.endpoint_code = endpoint.code;
    return { inputs, pathPrefix, endpoint };
  } catch (error) {
    return { inputs, pathPrefix, registration: (error as Error).message };
  }
}

/** A document with the skip reason of each of its workflows. */
interface PlannedDocument {
  file: string;
  doc: ArazzoDocument;
  plan: Map<string, string | undefined>;
}

/** The command line of `redocly respect` for the documents that have a workflow to run, the others skipped. */
function respectArgs(
  runnable: PlannedDocument[],
  selected: (w: ArazzoWorkflow) => boolean,
  options: WorkflowRunOptions,
  run: { recorderUrl: string; inputs: Record<string, string>; reportFile: string },
): string[] {
  const skip = runnable.flatMap(({ doc, plan }) =>
    doc.workflows.filter((w) => !selected(w) || plan.get(w.workflowId)).flatMap((w) => ['--skip', w.workflowId]),
  );
  return [
    ...runnable.map((r) => r.file),
    '--server',
    `partner=${run.recorderUrl}`,
    ...(options.simulationUrl ? ['--server', `sandbox=${options.simulationUrl}`] : []),
    ...Object.entries(run.inputs).flatMap(([k, v]) => ['--input', `${k}=${v}`]),
    ...skip,
    '--json-output',
    run.reportFile,
    '--no-secrets-masking',
    '--max-fetch-timeout',
    '20000',
    // Respect closes every object of a response schema; the contract's responses are open, so the
    // contract's own validator checks each response instead (contractResponseCheck).
    '--severity',
    'SCHEMA_CHECK=off',
  ];
}

/** Respect's report of the workflows that can run (none: an empty report), or why it gave none. */
async function respectReport(
  plans: PlannedDocument[],
  selected: (w: ArazzoWorkflow) => boolean,
  options: WorkflowRunOptions,
  run: { recorderUrl: string; inputs: Record<string, string>; dir: string },
): Promise<{ report: RespectReport; failure?: string }> {
  const runnable = plans.filter(({ doc, plan }) => doc.workflows.some((w) => selected(w) && !plan.get(w.workflowId)));
  if (runnable.length === 0) return { report: { files: {} } };
  const reportFile = path.join(run.dir, 'report.json');
  const respect = await runRespect(respectArgs(runnable, selected, options, { ...run, reportFile }), options.verbose ?? false);
  if (fs.existsSync(reportFile)) return { report: JSON.parse(fs.readFileSync(reportFile, 'utf8')) as RespectReport };
  const tail = respect.output.split('\n').filter(Boolean).slice(-5).join(' / ');
  return { report: { files: {} }, failure: `redocly respect exited with ${respect.code} without a report: ${tail}` };
}

/** The reported workflows by `<absolute file>#<workflowId>`, their requests pointed back at the server. */
function reportedWorkflows(report: RespectReport, recorderUrl: string, server: string): Map<string, ReportWorkflow> {
  const reported = new Map<string, ReportWorkflow>();
  for (const [file, { executedWorkflows }] of Object.entries(report.files)) {
    for (const w of executedWorkflows) {
      throughServer(w.executedSteps, recorderUrl, server);
      reported.set(`${path.resolve(ROOT, file)}#${w.workflowId}`, w);
    }
  }
  return reported;
}

/** What judging a workflow that ran needs: its steps' response check, and its events at the receiver. */
interface Judge {
  check: ResponseCheck;
  checker: EventChecker;
  eventsOf: Map<string, { id: string; type: string }[]>;
  secrets: string[];
  pathPrefix: string;
  receiver?: Receiver;
}

/** A workflow Respect ran: its steps (those it did not reach, not run) and its events, and its outcome from both. */
async function ranResult(
  base: Omit<WorkflowResult, 'outcome'>,
  w: ArazzoWorkflow,
  ran: ReportWorkflow,
  judge: Judge,
): Promise<WorkflowResult> {
  const steps = stepResults(ran.executedSteps, judge.check);
  for (const s of w.steps)
    if (!steps.some((r) => r.step === s.stepId || r.step.startsWith(`${s.stepId} › `))) steps.push({ step: s.stepId, outcome: 'not run' });
  const events = judge.receiver
    ? await judge.checker.check(judge.eventsOf.get(w.workflowId) ?? [], judge.receiver.deliveries, judge.secrets, judge.pathPrefix)
    : [];
  const failedStep = steps.find((s) => s.outcome === 'failed');
  const failedEvent = events.find((e) => e.outcome === 'failed');
  const outcome =
    !failedStep && !failedEvent && (ran.status === 'success' || steps.every((x) => x.outcome === 'passed')) ? 'passed' : 'failed';
  const reason = failedStep
    ? `step ${failedStep.step} failed`
    : failedEvent
      ? `event ${failedEvent.type} ${failedEvent.id}: ${failedEvent.problems[0]}`
      : ran.status === 'success'
        ? undefined
        : `respect status ${ran.status}`;
  return { ...base, outcome, ...(reason ? { reason } : {}), steps, events };
}

/** The result of one workflow: skipped (or failed, when the receiver it needs could not be registered), not reported, or judged. */
async function workflowResult(
  file: string,
  w: ArazzoWorkflow,
  skipped: string | undefined,
  run: { reported: Map<string, ReportWorkflow>; registration?: string; respectFailure?: string; judge: Judge },
): Promise<WorkflowResult> {
  const base = baseResult(file, w);
  if (skipped && run.registration && skipped.includes('endpoint_code')) return { ...base, outcome: 'failed', reason: run.registration };
  if (skipped) return { ...base, outcome: 'skipped', reason: skipped };
  const ran = run.reported.get(`${path.resolve(file)}#${w.workflowId}`);
  if (!ran) return { ...base, outcome: 'failed', reason: run.respectFailure ?? 'redocly respect did not report it' };
  return ranResult(base, w, ran, run.judge);
}

/** Runs the workflows; returns one result per workflow of every document, in document order. */
export async function runWorkflows(options: WorkflowRunOptions): Promise<WorkflowResult[]> {
  const docs = (options.files ?? workflowFiles()).map((file) => ({ file, doc: readArazzo(file) }));
  const selected = (w: ArazzoWorkflow) => !options.only?.length || options.only.includes(w.workflowId);
  if (options.mode === 'mock') {
    const reason = 'a stateless server: the mock answers each request with an example and keeps no state';
    return docs.flatMap(({ file, doc }) =>
      doc.workflows.filter(selected).map((w) => ({ ...baseResult(file, w), outcome: 'not applicable' as const, reason })),
    );
  }
  const { inputs, pathPrefix, endpoint, registration } = await runInputs(options);
  const simulation = options.simulationUrl !== undefined;
  const plans = docs.map(({ file, doc }) => ({ file, doc, plan: planWorkflows(doc, inputs, simulation) }));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workflows-'));
  // Every request to the partner API goes through the recorder, which sees what the report leaves out.
  const recorder = await startRecorder(options.server);
  try {
    const { report, failure } = await respectReport(plans, selected, options, { recorderUrl: recorder.url, inputs, dir });
    const reported = reportedWorkflows(report, recorder.url, options.server);
    const all = [...reported.values()];
    options.made?.push(...madeThrough(recorder.exchanges, options.bundle, createResponseValidator(options.bundle)));
    const eventsOf = new Map(all.map((w) => [w.workflowId, eventsFound(w.executedSteps)]));
    if (options.receiver)
      await eventsArrived(
        options.receiver,
        [...eventsOf.values()].flat().map((e) => e.id),
        EVENTS_ARRIVAL_MS,
      );
    const judge: Judge = {
      check: contractResponseCheck(options.bundle, options.server),
      checker: new EventChecker(options.bundle),
      eventsOf,
      secrets: [...(endpoint ? [endpoint.secret] : []), ...all.flatMap((w) => secretsSeen(w.executedSteps))],
      pathPrefix,
      ...(options.receiver ? { receiver: options.receiver } : {}),
    };
    const results: WorkflowResult[] = [];
    for (const { file, doc, plan } of plans)
      for (const w of doc.workflows.filter(selected))
        results.push(await workflowResult(file, w, plan.get(w.workflowId), { reported, registration, respectFailure: failure, judge }));
    return results;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await recorder.close();
    if (endpoint) await deleteEndpoint(options.server, options.apiKey, endpoint.code);
  }
}

/** Totals over the workflows (not applicable ones are counted apart). */
export function workflowTotals(results: readonly WorkflowResult[]): {
  passed: number;
  failed: number;
  skipped: number;
  notApplicable: number;
} {
  const n = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  return { passed: n('passed'), failed: n('failed'), skipped: n('skipped'), notApplicable: n('not applicable') };
}

/** The report lines: one per workflow, then each failed workflow's steps and events, then skip reasons. */
export function workflowLines(results: readonly WorkflowResult[]): string[] {
  if (results.length === 0) return [];
  const t = workflowTotals(results);
  const lines = ['', 'Workflows (spec/workflows, behaviour):'];
  if (t.notApplicable === results.length) {
    lines.push(`  ${results.length} workflows not applicable to ${results[0]!.reason ?? 'this server'}.`);
    lines.push(`Workflows: 0 passed, 0 failed, 0 skipped, ${t.notApplicable} not applicable.`);
    return lines;
  }
  const width = Math.max(...results.map((r) => r.workflowId.length));
  for (const r of results) {
    const steps = r.steps.length
      ? ` (${r.steps.filter((s) => s.outcome === 'passed').length}/${r.steps.length} steps, ${r.events.length} events)`
      : '';
    lines.push(
      `  ${r.outcome === 'failed' ? 'FAILED ' : ''}${r.workflowId.padEnd(width)}  ${r.outcome}${steps}${r.outcome !== 'passed' && r.reason ? `: ${r.reason}` : ''}`,
    );
  }
  const failed = results.filter((r) => r.outcome === 'failed');
  if (failed.length) {
    lines.push('', 'Workflow failures:');
    for (const r of failed) {
      lines.push(`  ${r.file} ${r.workflowId}: ${r.summary}`);
      for (const s of r.steps) {
        lines.push(`    ${s.outcome === 'failed' ? 'FAILED' : s.outcome === 'not run' ? 'not run' : 'passed'} ${s.step}`);
        for (const m of s.outcome === 'failed' ? (s.message ?? '').split('\n') : []) lines.push(`        ${m}`);
      }
      for (const e of r.events.filter((x) => x.outcome === 'failed')) for (const p of e.problems) lines.push(`    FAILED event ${p}`);
      if (!r.steps.length && r.reason) lines.push(`    ${r.reason}`);
    }
  }
  lines.push(
    `Workflows: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped${t.notApplicable ? `, ${t.notApplicable} not applicable` : ''}.`,
  );
  return lines;
}
