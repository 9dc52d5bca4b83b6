// Brings the resources of the set-up graph (./graph.ts) about through the API, each after what it needs. What
// differs between its users is the driver: how a request reaches the server (HTTP, or the sandbox's
// in-process inject), whether there is a simulation API to choose the provider's outcomes, how time passes
// (the seed moves the sandbox's clock; others wait), and what is done with each record made (the seed gives
// it the contract example's code).
//
// It imports the graph's types only, so that Node runs it as it is (type stripping) from the development
// scripts as well as compiled in the package: the graph is given to it.
//
//   const setup = new Setup(SETUP_GRAPH, driver);
//   const card = await setup.ensure('card');           // endpoint, customer and card, each made once
//   const other = await setup.fresh('verifiedCustomer'); // a new customer taken through KYC
//   await setup.bring('fullCustomer', other);            // ... and through proof of address
import type { Condition, Outcome, ResourceKey, SetupGraph, Step } from './graph.js';

export type Body = Record<string, unknown>;

export interface Answer {
  status: number;
  body: unknown;
}

export interface SetupDriver {
  /** A request to the partner API (`/cards`, `/gift-cards/orders` ...: the driver knows where each is served). */
  call(method: string, path: string, body?: Body): Promise<Answer>;
  /** A request to the sandbox's simulation API (`/kyc/{customerCode}/outcome` ...), where there is one. */
  simulate?(method: string, path: string, body?: Body): Promise<Answer>;
  /** The first request example of an operation in the contract (a copy), or undefined. */
  requestExample(method: string, path: string): Body | undefined;
  /** Lets the server's automatic outcomes that are due happen (the seed moves the sandbox's clock); by default 250 ms pass. */
  settle?(): Promise<void>;
  /** Adjusts a request body before it is sent (a fresh `external_reference`, the url of your receiver ...). */
  prepare?(key: ResourceKey, body: Body): void;
  /** Each record created, with the create answer's data: may give the code to use from then on (the seed renames it). */
  made?(key: ResourceKey, code: string, record: Body): string | undefined | Promise<string | undefined>;
  /** Notes that do not stop the set-up (a card still pending after the wait). */
  log?(line: string): void;
  /**
   * Whether a precondition may be met by any record that exists (true by default: one webhook endpoint is as good
   * as another). False for a caller that must use only what it made itself (a suite run on a shared server).
   */
  reuseExisting?: boolean;
  /**
   * Whether a record made asynchronously must reach its usable state (`ready`) to count as made (false by default:
   * the wait is noted and the record used as it is). True for a caller whose later requests need it usable.
   */
  requireReady?: boolean;
}

/** The request that a server refused during the set-up, and its answer. */
export interface RefusedCall {
  /** `partner` for the partner API (`call`), `simulation` for the simulation API (`simulate`). */
  api: 'partner' | 'simulation';
  method: string;
  /** The concrete path, as sent (`/cards/7c9e…/topup`). */
  path: string;
  body?: Body;
  status: number;
  answer: unknown;
}

/** A resource that could not be brought about; the message names the step and the answer, `call` the request refused. */
export class SetupError extends Error {
  readonly call?: RefusedCall;
  constructor(message: string, call?: RefusedCall) {
    super(message);
    this.call = call;
  }
}

/** The refused call behind an error, if any (a SetupError's, through the wrappers that name what needed it). */
const callOf = (error: unknown): RefusedCall | undefined => (error instanceof SetupError ? error.call : undefined);

const POLL_MS = 250;
const WAIT_LIMIT_MS = 15_000;

const isRecord = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);
const dataOf = (answer: Answer): unknown => (isRecord(answer.body) ? answer.body.data : undefined);
/** ` CODE: message` of an error answer, for the reason a step failed. */
const errorOf = (answer: Answer) =>
  isRecord(answer.body) && isRecord(answer.body.error) ? ` ${String(answer.body.error.code)}: ${String(answer.body.error.message)}` : '';
const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300;

/** The code of a record, or of the first active item of a list: the first of `fields` it has. */
export function codeOf(data: unknown, fields: string[]): string | undefined {
  // From a list, prefer an active item (a webhook endpoint must be active for customer creation).
  const item = Array.isArray(data) ? (data.find((x) => isRecord(x) && x.is_active !== false) ?? data[0]) : data;
  if (!isRecord(item)) return undefined;
  for (const f of fields) if (typeof item[f] === 'string') return item[f];
  return undefined;
}

const holds = (record: unknown, condition: Condition) => {
  const value = isRecord(record) ? record[condition.field] : undefined;
  return 'equals' in condition ? value === condition.equals : value !== undefined && value !== condition.not;
};
const describe = (condition: Condition) =>
  'equals' in condition ? `${condition.field} ${condition.equals}` : `${condition.field} other than ${condition.not}`;

/** The resources `key` needs, directly: its earlier state, its preconditions and the resources it names. */
export function dependencies(graph: SetupGraph, key: ResourceKey): ResourceKey[] {
  const node = graph.resources[key];
  return [...new Set([...(node.from ? [node.from] : []), ...(node.after ?? []), ...Object.values(node.refs ?? {})])];
}

/** The resource whose states `key` is one of: the node it comes `from`, first (a customer for `fullCustomer`). */
export function baseOf(graph: SetupGraph, key: ResourceKey): ResourceKey {
  let current = key;
  while (graph.resources[current].from) current = graph.resources[current].from!;
  return current;
}

/** The states from the base's to `key`'s, each with the steps that lead to it (`fullCustomer`: verifiedCustomer, fullCustomer). */
export function stateChain(graph: SetupGraph, key: ResourceKey): ResourceKey[] {
  const chain: ResourceKey[] = [];
  for (let current = key; graph.resources[current].from; current = graph.resources[current].from!) chain.unshift(current);
  return chain;
}

/**
 * Every resource `keys` need, each after the ones it needs (a depth-first order of the graph); throws on a
 * cycle, naming it.
 */
export function dependencyOrder(graph: SetupGraph, keys: ResourceKey[]): ResourceKey[] {
  const order: ResourceKey[] = [];
  const visiting: ResourceKey[] = [];
  const visit = (key: ResourceKey) => {
    if (order.includes(key)) return;
    if (visiting.includes(key)) throw new Error(`set-up graph: a cycle ${[...visiting.slice(visiting.indexOf(key)), key].join(' -> ')}`);
    visiting.push(key);
    for (const dep of dependencies(graph, key)) visit(dep);
    visiting.pop();
    order.push(key);
  };
  keys.forEach(visit);
  return order;
}

export class Setup {
  /** The code of each resource brought about, or given (`codes.set('customer', code)` to use one that exists). */
  readonly codes = new Map<ResourceKey, string>();
  /** The data of each create answer, by the code of the record (what only that answer gives: a webhook secret). */
  readonly created = new Map<string, Body>();
  readonly graph: SetupGraph;
  private readonly driver: SetupDriver;
  private readonly failures = new Map<ResourceKey, string>();
  private readonly failedCalls = new Map<ResourceKey, RefusedCall | undefined>();

  constructor(graph: SetupGraph, driver: SetupDriver) {
    this.graph = graph;
    this.driver = driver;
  }

  label(key: ResourceKey): string {
    return this.graph.resources[key].label;
  }

  /**
   * The code of `key`: the one known, else one brought about with what it needs, and remembered. A later state
   * (`verifiedCustomer`) is reached from the remembered earlier one (`customer`), which it then is.
   */
  async ensure(key: ResourceKey): Promise<string> {
    const known = this.codes.get(key);
    if (known) return known;
    const failed = this.failures.get(key);
    if (failed) throw new SetupError(failed, this.failedCalls.get(key));
    try {
      const code = await this.make(key, false);
      this.codes.set(key, code);
      return code;
    } catch (error) {
      const reason = (error as Error).message;
      this.failures.set(key, reason);
      this.failedCalls.set(key, callOf(error));
      throw error instanceof SetupError ? error : new SetupError(reason);
    }
  }

  /** A new `key` (a later state from a new earlier one), on the dependencies known or made; not remembered. `body` goes over the create request's. */
  fresh(key: ResourceKey, options: { body?: Body } = {}): Promise<string> {
    return this.make(key, true, options.body);
  }

  /** Takes an existing record from its base state to `key`'s (a customer through KYC and proof of address to `fullCustomer`). */
  async bring(key: ResourceKey, code: string): Promise<string> {
    for (const state of stateChain(this.graph, key)) await this.runSteps(state, code);
    return code;
  }

  /** Finds one in the resource's list (an active one first); undefined when there is none or no list. */
  async find(key: ResourceKey): Promise<string | undefined> {
    const list = this.graph.resources[key].list;
    if (!list) return undefined;
    const answer = await this.driver.call('GET', list.path);
    return answer.status === 200 ? codeOf(dataOf(answer), list.id) : undefined;
  }

  private async make(key: ResourceKey, fresh: boolean, body?: Body): Promise<string> {
    const node = this.graph.resources[key];
    if (node.from) {
      const code = fresh ? await this.make(node.from, true, body) : await this.ensure(node.from);
      await this.runSteps(key, code);
      return code;
    }
    if (node.create) return this.create(key, node, body);
    const found = await this.find(key);
    if (!found)
      throw new SetupError(
        node.list ? `no ${node.label} exists (GET ${node.list.path} lists none)` : `a ${node.label} cannot be made through the API`,
      );
    return found;
  }

  /** A precondition: the one known, else any existing one (unless the driver refuses to reuse), else one made. */
  private async precondition(key: ResourceKey): Promise<void> {
    if (this.codes.has(key)) return;
    const found = this.driver.reuseExisting === false ? undefined : await this.find(key).catch(() => undefined);
    if (found) this.codes.set(key, found);
    else await this.ensure(key);
  }

  /** The code of a resource that `key` needs, made if need be; a failure names both. */
  private async needed(key: ResourceKey, dependency: ResourceKey): Promise<string> {
    try {
      return await this.ensure(dependency);
    } catch (error) {
      throw new SetupError(`creating a ${this.label(key)} needs a ${this.label(dependency)}: ${(error as Error).message}`, callOf(error));
    }
  }

  private async create(key: ResourceKey, node: SetupGraph['resources'][ResourceKey], override?: Body): Promise<string> {
    const { method, path, id } = node.create!;
    for (const dep of node.after ?? []) {
      try {
        await this.precondition(dep);
      } catch (error) {
        throw new SetupError(`creating a ${node.label} needs a ${this.label(dep)}: ${(error as Error).message}`, callOf(error));
      }
    }
    const refs = node.refs ?? {};
    const params = new Map<string, string>();
    for (const name of templateParams(path)) params.set(name, await this.needed(key, refs[name] ?? this.graph.references[name]!));
    const body = this.driver.requestExample(method, path) ?? {};
    await this.fillReferences(body, async (field) => (refs[field] ? this.needed(key, refs[field]) : undefined));
    this.driver.prepare?.(key, body);
    Object.assign(body, override);
    const sent = fill(path, params);
    const answer = await this.driver.call(method, sent, body);
    const record = dataOf(answer);
    const code = ok(answer) ? codeOf(record, id) : undefined;
    if (!code)
      throw new SetupError(`${method} ${path} answered ${answer.status}${errorOf(answer)}`, {
        api: 'partner',
        method,
        path: sent,
        body,
        status: answer.status,
        answer: answer.body,
      });
    const renamed = (await this.driver.made?.(key, code, isRecord(record) ? record : {})) || code;
    this.created.set(renamed, isRecord(record) ? record : {});
    if (node.ready) {
      const reached = await this.waitFor(key, renamed, node.ready);
      if (!reached && this.driver.requireReady) {
        const still = 'equals' in node.ready ? `not ${describe(node.ready)}` : `still ${node.ready.field} ${node.ready.not}`;
        throw new SetupError(`${method} ${path} made ${node.label} ${renamed}, ${still} after ${WAIT_LIMIT_MS / 1000} s`);
      }
      if (!reached) this.driver.log?.(`set-up: ${node.label} ${renamed} is still pending after ${WAIT_LIMIT_MS / 1000} s`);
    }
    return renamed;
  }

  /** The steps that lead from `key`'s earlier state to its own, run on the record `code`. */
  private async runSteps(key: ResourceKey, code: string): Promise<void> {
    const base = baseOf(this.graph, key);
    for (const step of this.graph.resources[key].steps ?? []) await this.runStep(key, base, code, step);
  }

  private async runStep(key: ResourceKey, base: ResourceKey, code: string, step: Step): Promise<void> {
    const label = `${this.label(key)} ${code}`;
    // A reference to the resource itself is its code; one to another resource, that resource's.
    const codeFor = async (name: string) => {
      const ref = this.graph.references[name];
      if (!ref) return undefined;
      return baseOf(this.graph, ref) === base ? code : this.needed(key, ref);
    };
    if ('call' in step) {
      const { method, path } = step.call;
      const params = new Map<string, string>();
      for (const name of templateParams(path)) params.set(name, (await codeFor(name)) ?? code);
      const body = this.driver.requestExample(method, path) ?? {};
      await this.fillReferences(body, codeFor);
      const sent = fill(path, params);
      const answer = await this.driver.call(method, sent, body);
      if (!ok(answer))
        throw new SetupError(`${label}: ${method} ${path} answered ${answer.status}${errorOf(answer)}`, {
          api: 'partner',
          method,
          path: sent,
          body,
          status: answer.status,
          answer: answer.body,
        });
      return;
    }
    await this.outcome(key, code, step.outcome);
  }

  /** The provider's outcome: chosen through the simulation API, or decided by the server; then read back until it holds. */
  private async outcome(key: ResourceKey, code: string, outcome: Outcome): Promise<void> {
    const label = `${this.label(key)} ${code}`;
    const chosen = JSON.stringify(outcome.body);
    if (this.driver.simulate) {
      const path = fill(outcome.path, new Map(templateParams(outcome.path).map((name) => [name, code])));
      const answer = await this.driver.simulate('POST', path, outcome.body as Body);
      if (answer.status !== 200) {
        throw new SetupError(
          `${label}: the outcome ${chosen} (simulation POST ${outcome.path}) answered ${answer.status}${errorOf(answer)}`,
          { api: 'simulation', method: 'POST', path, body: outcome.body as Body, status: answer.status, answer: answer.body },
        );
      }
    } else if (outcome.simulationOnly) {
      throw new SetupError(`${label}: the outcome ${chosen} is the provider's, and only a sandbox's simulation API can choose it`);
    }
    if (!(await this.waitFor(key, code, outcome.until))) {
      const how = this.driver.simulate ? '' : ' (the provider decides it: a sandbox decides it by itself, or through its simulation API)';
      throw new SetupError(`${label}: not ${describe(outcome.until)} within ${WAIT_LIMIT_MS / 1000} s${how}`);
    }
  }

  /** Reads the record until `condition` holds, letting time pass between reads; false when it never did. */
  private async waitFor(key: ResourceKey, code: string, condition: Condition): Promise<boolean> {
    const read = this.graph.resources[key].read ?? this.graph.resources[baseOf(this.graph, key)].read;
    if (!read) return true;
    const names = templateParams(read);
    const params = new Map<string, string>();
    for (const [i, name] of names.entries())
      params.set(
        name,
        i === names.length - 1 ? code : await this.needed(key, this.graph.resources[key].refs?.[name] ?? this.graph.references[name]!),
      );
    for (let waited = 0; ; waited += POLL_MS) {
      const answer = await this.driver.call('GET', fill(read, params));
      if (holds(dataOf(answer), condition)) return true;
      if (waited >= WAIT_LIMIT_MS) return false;
      await (this.driver.settle ? this.driver.settle() : new Promise((resolve) => setTimeout(resolve, POLL_MS)));
    }
  }

  /** Puts codes into the reference fields of a body, at any depth (`codeFor` gives undefined for a field to leave). */
  private async fillReferences(body: unknown, codeFor: (field: string) => Promise<string | undefined>): Promise<void> {
    if (Array.isArray(body)) {
      for (const item of body) await this.fillReferences(item, codeFor);
    } else if (isRecord(body)) {
      for (const [field, value] of Object.entries(body)) {
        const code = typeof value === 'string' ? await codeFor(field) : undefined;
        if (code !== undefined) body[field] = code;
        else await this.fillReferences(value, codeFor);
      }
    }
  }
}

function templateParams(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

function fill(template: string, params: Map<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params.get(name) ?? ''));
}
