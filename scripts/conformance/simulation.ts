// The simulation API (--simulation-url, described by spec/sandbox.yaml) as the suite calls it: every answer
// the suite reads from it (the clock, outcomes, faults, balances, the account's settings) is checked against
// that contract (generated/sandbox.json) like the partner API's: a documented status (any 2xx the suite relies
// on, or a documented error) whose body breaks its schema is a failure of the report, with the request, the
// answer and its curl. An answer the contract does not document (a server without a simulation API answering
// 404) is left to the caller, which skips what needed it. One result per operation of the simulation API: its
// first failure, or passed. The Dredd hooks (another process) call it too: their results come back in the
// results file and are merged (`mergeSimulationResults`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/paths.ts';
import type { JsonObject } from '../lib/pointer.ts';
import { bodyText, call, curlOf, join, type Answer } from './http.ts';
import type { CheckResult, ConformanceConfig } from './types.ts';
import { createResponseValidator, formatErrors, matchPathTemplate, type ResponseValidator } from './validate-response.ts';

export const SIMULATION = 'simulation API';
export const SIMULATION_TITLE = 'Simulation API answers (spec/sandbox.yaml)';

let contract: { bundle: JsonObject; validator: ResponseValidator } | undefined;
/** The simulation API's contract, read once. */
function simulationContract() {
  if (!contract) {
    const bundle = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'sandbox.json'), 'utf8')) as JsonObject;
    contract = { bundle, validator: createResponseValidator(bundle) };
  }
  return contract;
}

/** Each operation's result, by `METHOD /template`: the first failure stays. */
const results = new Map<string, CheckResult>();

/** A call of the simulation API for the suite's key (or the one given), its answer checked against spec/sandbox.yaml. */
export async function simulate(
  config: ConformanceConfig,
  method: string,
  path: string,
  body?: unknown,
  key = config.apiKey,
): Promise<Answer> {
  const url = join(config.simulationUrl!, path);
  const answer = await call(url, key, method, body);
  const { bundle, validator } = simulationContract();
  const template = matchPathTemplate(bundle, method, path);
  const documented = template !== undefined && validator.responseKey(method, template, answer.status) !== undefined;
  if (!template || !documented) return answer;
  const name = `${method} ${template}`;
  const errors = validator.validate(method, template, answer.status, answer.body, answer.headers.get('content-type') ?? undefined);
  if (errors.length === 0) {
    if (!results.has(name)) results.set(name, { group: SIMULATION, name, outcome: 'passed' });
  } else if (results.get(name)?.outcome !== 'failed') {
    const sent = body === undefined ? undefined : JSON.stringify(body);
    const headers = { Authorization: `Bearer ${key}`, ...(sent ? { 'Content-Type': 'application/json' } : {}) };
    results.set(name, {
      group: SIMULATION,
      name,
      outcome: 'failed',
      message: `${formatErrors(errors).replaceAll('\n', '; ')}; request: ${method} ${url}${sent ? ` ${sent}` : ''}; answered ${answer.status} ${bodyText(answer.body, 400)}`,
      reproducer: curlOf(method, url, headers, sent),
    });
  }
  return answer;
}

/** The results so far, one per operation of the simulation API called. */
export const simulationResults = (): CheckResult[] => [...results.values()];

/** Two processes' results as one: per operation, a failure over a pass. */
export function mergeSimulationResults(...lists: CheckResult[][]): CheckResult[] {
  const merged = new Map<string, CheckResult>();
  for (const r of lists.flat()) if (merged.get(r.name)?.outcome !== 'failed') merged.set(r.name, r);
  return [...merged.values()];
}
