// What every check reads: the run's settings, the contract (its validator and the operations to check), the
// resources set up for the suite's key, the failure envelope's schema, and where results go.
import type { ValidateFunction } from 'ajv';
import { refusalsOf, type Refusals } from '../../../src/contract/bundle.ts';
import { bundleAjv } from '../../lib/schema.ts';
import type { JsonObject } from '../../lib/pointer.ts';
import { emptyState } from '../setup.ts';
import type { CheckResult, ConformanceConfig, HookState, Reply } from '../types.ts';
import { createResponseValidator, type OperationInfo, type ResponseValidator } from '../validate-response.ts';

export interface CheckOptions {
  /** A key of another account (--second-key), for the isolation checks. */
  secondKey?: string;
  /** The seed of the generated invalid requests (--seed): the same seed sends the same requests. */
  seed: number;
  /** At most this many invalid requests per operation (--checks-per-operation). */
  perOperation: number;
}

export interface CheckContext extends CheckOptions {
  config: ConformanceConfig;
  validator: ResponseValidator;
  /** The operations checked (all, or those of --only). */
  operations: OperationInfo[];
  /** The resources set up for the suite's key (real mode), as the Dredd run has them. */
  state: HookState;
  results: CheckResult[];
  /** Tells whether a body is in the failure envelope `{ success: false, error: { code, message, details } }`. */
  isErrorEnvelope: ValidateFunction;
  /** The contract's refusals (`x-refusals`): the order of the checks and the wrong-method answer. */
  refusals: Refusals;
}

const BUNDLE_ID = 'https://conformance.checks/openapi.json';

/** The checks' context; `state` is the run's set-up when it was done already (run.ts), else a new one to set up. */
export function createContext(
  config: ConformanceConfig,
  bundle: JsonObject,
  selected: JsonObject,
  options: CheckOptions,
  prepared?: HookState,
): CheckContext {
  const validator = prepared?.validator ?? createResponseValidator(bundle);
  const chosen = createResponseValidator(selected).operations();
  const operations = validator.operations().filter((o) => chosen.some((c) => c.method === o.method && c.path === o.path));
  const isErrorEnvelope = bundleAjv(bundle, BUNDLE_ID).getSchema(`${BUNDLE_ID}#/components/schemas/ErrorEnvelope`)!;
  const state: HookState = prepared ?? emptyState(config, validator);
  return { ...options, config, validator, operations, state, results: [], isErrorEnvelope, refusals: refusalsOf(bundle) };
}

/** Adds a result. */
export function record(ctx: CheckContext, result: CheckResult): void {
  ctx.results.push(result);
}

/** The error code of a failure envelope, if any. */
export function errorCodeOf(body: unknown): string | undefined {
  const error = typeof body === 'object' && body !== null ? (body as { error?: { code?: unknown } }).error : undefined;
  return typeof error?.code === 'string' ? error.code : undefined;
}

/**
 * Problems of an error answer: it must be a 4xx (or the status expected), in the failure envelope, valid against
 * the operation's response for that status where it documents one, with the expected error code.
 */
export function refusalProblems(
  ctx: CheckContext,
  method: string,
  template: string,
  reply: Reply,
  expect: { status?: number; codes?: string[] },
): string[] {
  const problems: string[] = [];
  const got = `${reply.status}${errorCodeOf(reply.body) ? ` ${errorCodeOf(reply.body)}` : ''}`;
  if (expect.status !== undefined ? reply.status !== expect.status : reply.status < 400 || reply.status > 499) {
    problems.push(`answered ${got}, expected ${expect.status ?? 'a 4xx'}${expect.codes?.length ? ` ${expect.codes.join(' or ')}` : ''}`);
    return problems;
  }
  if (!ctx.isErrorEnvelope(reply.body)) {
    problems.push(`answered ${reply.status} outside the failure envelope: ${JSON.stringify(reply.body).slice(0, 120)}`);
    return problems;
  }
  if (ctx.validator.responseKey(method, template, reply.status) !== undefined) {
    const errors = ctx.validator.validate(method, template, reply.status, reply.body, reply.headers.get('content-type') ?? undefined);
    if (errors.length) problems.push(errors.map((e) => `${e.pointer || '/'}: ${e.message}`).join('; '));
  }
  const code = errorCodeOf(reply.body);
  if (expect.codes?.length && !expect.codes.includes(code ?? ''))
    problems.push(`error code ${code}, expected ${expect.codes.join(' or ')}`);
  return problems;
}
