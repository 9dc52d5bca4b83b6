// The Dredd hooks (hooks.cjs hands every hook to these functions):
//   - set `Authorization: Bearer <key>`;
//   - plan the transactions for the mode: against the mock, one per named example (plan-mock.ts); against a
//     real server, the state set up first (setup.ts) and each status provoked or skipped with the reason
//     (plan-real.ts), with the state one transaction needs brought about just before it (arrange.ts);
//   - normalise `Content-Type` (`application/json; charset=utf-8` -> `application/json`);
//   - validate every response strictly (validate-response.ts) and fail the transaction with the JSON pointer
//     and the problem;
//   - write one record per transaction to the results file the runner reports.
// Dredd makes one transaction per documented response status of each operation, sends the request examples,
// and on its own checks only the status, the headers and the required properties of the first example.
import { readFileSync, writeFileSync } from 'node:fs';
import { arrange, restore } from './arrange.ts';
import { madeRecord } from './cleanup.ts';
import { simulationResults } from './simulation.ts';
import { bodyText, curlOf } from './http.ts';
import { planMock } from './plan-mock.ts';
import { planReal } from './plan-real.ts';
import { emptyState, setUp } from './setup.ts';
import { parseBody, skip } from './transaction.ts';
import type { ConformanceConfig, DreddTransaction, HookState, TransactionRecord } from './types.ts';
import { createResponseValidator, formatErrors, normaliseContentType } from './validate-response.ts';

export function createState(configFile: string): HookState {
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as ConformanceConfig;
  const bundle = JSON.parse(readFileSync(config.spec, 'utf8'));
  return emptyState(config, createResponseValidator(bundle));
}

export async function beforeAll(state: HookState, transactions: DreddTransaction[]): Promise<void> {
  if (state.config.mode === 'mock') {
    planMock(state, transactions);
    return;
  }
  // The run sets up once, for the checks and for Dredd (run.ts); run by hand, the hooks set up themselves.
  const prepared = state.config.setup;
  if (prepared) {
    for (const [key, code] of Object.entries(prepared.resources)) state.resources.set(key, code);
    for (const [key, reason] of Object.entries(prepared.missing)) state.missing.set(key, reason);
  } else {
    await setUp(state);
  }
  planReal(state, transactions);
}

/** Real mode: brings about the state the transaction needs just before it is sent (arrange.ts). */
export async function beforeEach(state: HookState, t: DreddTransaction): Promise<void> {
  const c = t.conformance;
  if (t.skip || !c?.arrange) return;
  let problem: string | undefined;
  try {
    problem = await arrange(state.config, t, c.arrange);
  } catch (error) {
    problem = `set-up for this transaction failed: ${(error as Error).message}`;
  }
  if (problem) {
    skip(t, `its precondition could not be brought about, so it was not sent: ${problem}`);
    await restore(t).catch(() => undefined);
  }
}

/** Real mode: undoes what beforeEach brought about (balances set back, a fault not taken disarmed). */
export async function afterEachRestore(t: DreddTransaction): Promise<void> {
  await restore(t).catch(() => undefined);
}

/** Normalises the content type and hands the body check to Ajv (Gavel would only compare with the example). */
export function beforeEachValidation(state: HookState, t: DreddTransaction): void {
  if (!t.real) return;
  // Gavel wants every documented header; the contract requires only those marked `required` (checked,
  // with the values of the others, in afterEach).
  const c = t.conformance ?? { path: t.origin.resourceName, status: t.expected.statusCode };
  const documented = state.validator.documentedHeaders(t.request.method, c.path, c.status);
  for (const name of Object.keys(t.expected.headers)) {
    const required = [...documented].find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
    if (name.toLowerCase() !== 'content-type' && required !== true) delete t.expected.headers[name];
  }
  for (const [key, value] of Object.entries(t.real.headers)) {
    if (key.toLowerCase() === 'content-type' && typeof value === 'string') t.real.headers[key] = normaliseContentType(value);
  }
  // Gavel compares the body with the first example's keys, which would fail valid bodies that differ from
  // it; the strict schema check in afterEach replaces it. An empty JSON Schema accepts any JSON body.
  delete t.expected.body;
  t.expected.bodySchema = '{"$schema": "http://json-schema.org/draft-07/schema#"}';
}

export function afterEach(state: HookState, t: DreddTransaction): void {
  const c = t.conformance ?? { path: t.origin.resourceName, status: t.expected.statusCode };
  const info = state.validator.operation(t.request.method, c.path);
  const record: TransactionRecord = {
    name: t.name,
    method: t.request.method,
    path: c.path,
    operationId: info?.operationId,
    status: c.status,
    example: c.example,
    outcome: 'passed',
  };
  state.records.push(record);
  if (t.skip) {
    record.outcome = 'skipped';
    record.message = c.skipReason ?? t.errors?.map((e) => e.message).join('; ') ?? 'skipped';
    return;
  }
  if (!t.real) {
    record.outcome = 'failed';
    record.message = `no response from ${t.protocol}//${t.host}:${t.port}${t.fullPath}`;
    return;
  }
  record.actualStatus = t.real.statusCode;
  const key = Object.entries(t.request.headers)
    .find(([k]) => k.toLowerCase() === 'authorization')?.[1]
    ?.replace(/^Bearer /, '');
  const made = key ? madeRecord(state.validator, t.request.method, c.path, t.real.statusCode, parseBody(t.real.body), key) : undefined;
  if (made) {
    state.made.push(made);
    // Written as they are made, for a run stopped during Dredd (interrupt.ts): its clean-up removes them too.
    writeFileSync(`${state.config.results}.made`, JSON.stringify(state.made));
  }
  const problems: string[] = [];
  if (String(t.real.statusCode) !== c.status) problems.push(`status: expected ${c.status}, got ${t.real.statusCode}`);
  const contentType = Object.entries(t.real.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  const errors = [
    ...state.validator.validate(t.request.method, c.path, t.real.statusCode, t.real.body, contentType),
    ...state.validator.validateHeaders(t.request.method, c.path, t.real.statusCode, t.real.headers),
  ];
  if (errors.length === 0) {
    // Responses are open: an undocumented field is a warning, not a failure.
    const undocumented = state.validator.undocumented(t.request.method, c.path, t.real.statusCode, t.real.body, contentType);
    if (undocumented.length) record.undocumented = undocumented;
  }
  if (errors.length) problems.push(formatErrors(errors));
  else if (c.expectCode && String(t.real.statusCode) === c.status) {
    const got = (parseBody(t.real.body) as { error?: { code?: string } } | undefined)?.error?.code;
    if (got !== c.expectCode) problems.push(`/error/code: expected '${c.expectCode}' for this request, got '${got}'`);
  }
  if (problems.length === 0 && t.test && t.test.valid === false && t.test.message) problems.push(t.test.message.trim());
  if (problems.length) {
    record.outcome = 'failed';
    record.message = problems.join('\n');
    const url = `${t.protocol}//${t.host}:${t.port}${t.fullPath}`;
    const headers = Object.fromEntries(Object.entries(t.request.headers).filter(([k]) => !/^(user-agent|content-length|accept)$/i.test(k)));
    record.request = `${t.request.method} ${url}${t.request.body ? ` ${t.request.body}` : ''}`;
    record.response = `${t.real.statusCode} ${bodyText(parseBody(t.real.body) ?? t.real.body)}`;
    record.reproducer = curlOf(t.request.method, url, headers, t.request.body || undefined);
    t.fail = record.message;
    if (t.test) t.test.message = `${t.test.message ? `${t.test.message}\n` : ''}${record.message}`;
  }
}

export function afterAll(state: HookState): void {
  writeFileSync(
    state.config.results,
    JSON.stringify(
      {
        mode: state.config.mode,
        setup: state.setupLog,
        setupFailures: state.setupFailures,
        records: state.records,
        made: state.made,
        simulation: simulationResults(),
      },
      null,
      1,
    ),
  );
}
