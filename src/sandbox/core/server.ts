// The HTTP server: fastify 5 with fastify-openapi-glue reading the contract (routes, parameters and request
// validation from generated/openapi.json), the checks every operation shares (key, IP allow-list, rate
// limit, plan product access, negative balance, idempotency), and every answer in the API's envelope.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Account } from './accounts.js';
import { API_KEY_RULE, apiKeyMode } from '../../client/api-key.js';
import { planRateLimit } from './accounts.js';
import { sharedValidatorCompiler } from './ajv.js';
import { documentRoutes, type DocumentRoute } from './document-routes.js';
import type { Call, Handlers, OperationId, SandboxCore } from './context.js';
import { operationsOf, type JsonObject, type OperationInfo } from './contract.js';
import { ApiError, apiError, outsideOperations, type FieldError } from './errors.js';
import { dropContentTypeOfEmptyBody } from './empty-body.js';
import { IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_PATTERN, IdempotencyStore } from './idempotency.js';
import { basePathHint } from './path-hint.js';
import { RateLimiter } from './ratelimit.js';
import { validationProblem, type AjvError } from './validation-messages.js';

export const BODY_LIMIT_BYTES = 1_048_576;

/**
 * A body refused as too large is still read (and discarded) up to this many bytes, for at most
 * TOO_LARGE_READ_MS, before the 413 is sent: a client that sends its whole body before it reads the answer
 * (Node's fetch) then gets the 413, not a broken pipe. Beyond, the answer is sent at once and the connection
 * closed (docs/sandbox.md).
 */
export const TOO_LARGE_READ_BYTES = 64 * 1_048_576;
const TOO_LARGE_READ_MS = 10_000;

/** Reads and discards the rest of a request body, up to TOO_LARGE_READ_BYTES and TOO_LARGE_READ_MS. */
function discardBody(raw: IncomingMessage): Promise<void> {
  if (raw.complete || Number(raw.headers['content-length']) > TOO_LARGE_READ_BYTES) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const stop = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', stop).off('error', stop).off('close', stop);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > TOO_LARGE_READ_BYTES) stop();
    };
    const timer = setTimeout(stop, TOO_LARGE_READ_MS);
    raw.on('data', onData).once('end', stop).once('error', stop).once('close', stop);
    raw.resume();
  });
}

export interface ServerOptions {
  core: SandboxCore;
  document: JsonObject;
  handlers: Handlers;
  rateLimit: boolean;
  /** Extra route registrations (the simulation API). */
  extra?: (app: FastifyInstance) => Promise<void> | void;
}

interface RouteConfig {
  operation?: OperationInfo;
  /** The operation was called at the wrong base address (`/v1` for a gift card operation). */
  wrongHost?: boolean;
}

interface RequestState {
  account?: Account;
  mode: 'test' | 'live';
  /** The route's config, read once: fastify builds `request.routeOptions` anew at each read. */
  route: RouteConfig;
  idempotency?: { key: string; fingerprint: string; end: () => void; replayed: boolean; kept?: boolean };
}

declare module 'fastify' {
  interface FastifyRequest {
    sandbox: RequestState;
  }
}

/** Random bytes for request ids, drawn 4 KB at a time (one call into the random source per 512 requests). */
let randomPool = Buffer.alloc(0);
let randomAt = 0;

/** `req_` and 16 random hex digits. */
function newRequestId(): string {
  if (randomAt + 8 > randomPool.length) {
    randomPool = randomBytes(4096);
    randomAt = 0;
  }
  randomAt += 8;
  return `req_${randomPool.toString('hex', randomAt - 8, randomAt)}`;
}

function meta(core: SandboxCore, request: FastifyRequest) {
  return { request_id: String(request.id), mode: request.sandbox?.mode ?? 'test', timestamp: core.clock.iso() };
}

/** Sends an error in the failure envelope. */
export function sendError(core: SandboxCore, request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.status)
    .type('application/json')
    .send({ success: false, error: { code: error.code, message: error.message, details: error.details }, meta: meta(core, request) });
}

/** The contract's path templates as regular expressions, to tell a wrong method from an unknown path. */
function methodsByPath(operations: OperationInfo[]): { re: RegExp; methods: Set<string> }[] {
  const byTemplate = new Map<string, Set<string>>();
  for (const op of operations) {
    const set = byTemplate.get(op.path) ?? new Set<string>();
    set.add(op.method);
    byTemplate.set(op.path, set);
  }
  // A literal segment wins over a parameter: `/payouts/beneficiaries` is not `/payouts/{code}`.
  const params = (template: string) => template.split('{').length;
  return [...byTemplate].sort(([a], [b]) => params(a) - params(b)).map(([template, methods]) => ({
    re: new RegExp(`^/(v1|api/v1)${template.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+')}/?$`),
    methods,
  }));
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { core, document, handlers } = options;
  const operations = operationsOf(document);
  const limiter = new RateLimiter();
  const idempotency = new IdempotencyStore(core.db);

  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES, genReqId: newRequestId, return503OnClosing: false });
  app.decorateRequest('sandbox', null as unknown as RequestState);
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', dropContentTypeOfEmptyBody);
  app.setValidatorCompiler(sharedValidatorCompiler(document));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // The hooks take `done` rather than returning a promise: a request then goes through them without a
  // promise and a microtask each. A throw is answered by the error handler either way.
  app.addHook('onRequest', (request, reply, done) => {
    const header = request.headers.authorization;
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const route = request.routeOptions.config as RouteConfig;
    const mode = token === undefined ? undefined : apiKeyMode(token);
    request.sandbox = { mode: mode ?? 'test', route };
    if (!route.operation) return done(); // not an operation of the API (404, the simulation API)
    if (header === undefined || header === '') {
      throw apiError('AUTHENTICATION_REQUIRED', 'Send your API key as `Authorization: Bearer <API_KEY>`.', null);
    }
    if (!token || mode === undefined) {
      throw apiError('AUTHENTICATION_FAILED', `The API key is invalid: send \`Authorization: Bearer <API_KEY>\` with a key that is ${API_KEY_RULE}.`, null);
    }
    const account = core.accounts.known(token);
    if (!account) throw apiError('AUTHENTICATION_FAILED', 'This API key is not known to the sandbox (it accepts only the keys of its config).', null);
    request.sandbox.account = account;
    if (account.revoked) throw apiError('AUTHENTICATION_FAILED', 'This API key has been revoked.', null);
    if (!account.allowedIps.includes(request.ip)) {
      throw apiError('IP_NOT_ALLOWED', `Requests from ${request.ip} are not allowed for this key.`, null);
    }
    if (options.rateLimit) {
      const state = limiter.hit(account.apiKey, account.rateLimit ?? planRateLimit(account.plan), core.clock.now());
      reply.header('X-RateLimit-Limit', String(state.limit));
      reply.header('X-RateLimit-Remaining', String(state.remaining));
      reply.header('X-RateLimit-Reset', String(state.reset));
      if (state.exceeded) {
        throw apiError('RATE_LIMIT_EXCEEDED', `Rate limit of ${state.limit} requests per minute reached for this key.`, null, {
          headers: { 'Retry-After': String(state.retryAfter) },
        });
      }
    }
    done();
  });

  app.addHook('preValidation', (request, _reply, done) => {
    if (request.sandbox.route.operation?.bodyRequired && (request.body === undefined || request.body === null)) {
      throw apiError('VALIDATION_ERROR', 'A JSON request body is required.', { fields: [{ field: 'body', message: 'is required (required)' }] });
    }
    done();
  });

  /** The plan's product access and the negative-balance suspension (after idempotency: their answers are kept). */
  const checkAllowed = (account: Account, operation: OperationInfo): void => {
    const refusal = core.products.refusal(account, operation.tag);
    if (refusal) throw apiError('PLAN_UPGRADE_REQUIRED', refusal, null);
    if (operation.method !== 'GET') {
      const since = core.ledger.negativeSince(account.id);
      if (since !== undefined) {
        throw apiError('ACCOUNT_SUSPENDED_NEGATIVE_BALANCE', 'An ops balance is negative: only GET requests are accepted until it is funded.', {
          negative_balance_since: core.clock.iso(since),
        });
      }
    }
    // A simulated fault answers in place of the operation, which then does not run (src/sandbox/core/faults.ts).
    const fault = core.faults.take(account.id, operation.operationId);
    if (fault) throw fault;
  };

  /** A POST with an Idempotency-Key: waits for a run with the same key, replays its answer (true), or marks this run. */
  const idempotent = async (request: FastifyRequest, reply: FastifyReply, account: Account, key: unknown): Promise<boolean> => {
    if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
      throw apiError('VALIDATION_ERROR', `Idempotency-Key must match ${IDEMPOTENCY_KEY_PATTERN}.`, {
        fields: [{ field: 'Idempotency-Key', message: `must match ${IDEMPOTENCY_KEY_PATTERN} (pattern)` }],
      });
    }
    const fingerprint = IdempotencyStore.fingerprint(request.method, request.url, request.body);
    const slot = await idempotency.acquire(account.id, key, core.clock.now());
    if ('kept' in slot && slot.kept.fingerprint !== fingerprint) {
      throw apiError('VALIDATION_ERROR', 'This Idempotency-Key was used with another method, path or body.', {
        fields: [{ field: 'Idempotency-Key', message: 'was used for another request' }],
        reason: 'idempotency_key_reused',
      });
    }
    if ('kept' in slot) {
      request.sandbox.idempotency = { key, fingerprint, end: () => {}, replayed: true };
      reply.code(slot.kept.status).header('Idempotent-Replayed', 'true').type('application/json').serializer((p: unknown) => String(p)).send(slot.kept.body);
      return true;
    }
    request.sandbox.idempotency = { key, fingerprint, end: slot.end, replayed: false };
    return false;
  };

  app.addHook('preHandler', (request, reply, done) => {
    const { route, account } = request.sandbox;
    const operation = route.operation;
    if (!operation || !account) return done();
    if (route.wrongHost) {
      throw apiError('wrong_api_host', 'Gift card operations are served at the gift card address `{alt_base_url}` (`/api/v1`), not at `/v1`.', null);
    }
    // Idempotency first: every answer from here on is the operation's and is kept.
    const key = request.headers['idempotency-key'];
    if (operation.method === 'POST' && key !== undefined) {
      idempotent(request, reply, account, key).then((replayed) => {
        if (replayed) return;
        try {
          checkAllowed(account, operation);
        } catch (error) {
          return done(error as Error);
        }
        done();
      }, done);
      return;
    }
    checkAllowed(account, operation);
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const idem = request.sandbox?.idempotency;
    const account = request.sandbox?.account;
    if (idem && !idem.replayed && !idem.kept && account && reply.statusCode < 500 && typeof payload === 'string') {
      idempotency.keep(account.id, idem.key, { fingerprint: idem.fingerprint, status: reply.statusCode, body: payload }, core.clock.now());
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request, _reply, done) => {
    request.sandbox?.idempotency?.end();
    done();
  });

  app.setErrorHandler((error: FastifyError & { validation?: unknown[]; validationContext?: string }, request, reply) => {
    if (!request.sandbox) request.sandbox = { mode: 'test', route: {} };
    if (error instanceof ApiError) return sendError(core, request, reply, error);
    // A body sent to no operation: the path or method is what is wrong.
    if (request.routeOptions.url === undefined) return noOperation(request, reply);
    if (error.validation) {
      const context = error.validationContext ?? 'body';
      const data = context === 'body' ? request.body : context === 'querystring' ? request.query : context === 'params' ? request.params : request.headers;
      const { message, fields } = validationProblem(error.validation as AjvError[], context, data);
      return sendError(core, request, reply, apiError('VALIDATION_ERROR', message, { fields }));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(core, request, reply, outsideOperations(415, `Content-Type ${String(request.headers['content-type'])} is not accepted: send application/json.`, {
          fields: [{ field: 'Content-Type', message: 'must be application/json' }],
        }));
      case 'FST_ERR_CTP_BODY_TOO_LARGE': {
        const limit = request.routeOptions.bodyLimit ?? BODY_LIMIT_BYTES;
        const tooLarge = outsideOperations(413, `The request body is larger than ${limit} bytes.`, {
          fields: [{ field: 'body', message: `must be at most ${limit} bytes` }],
        });
        return discardBody(request.raw).then(() => {
          sendError(core, request, reply, tooLarge);
        });
      }
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return sendError(core, request, reply, apiError('VALIDATION_ERROR', 'The request body is not valid JSON.', { fields: [{ field: 'body', message: 'is not valid JSON' }] }));
    }
    if (error instanceof SyntaxError || error.statusCode === 400) {
      return sendError(core, request, reply, apiError('VALIDATION_ERROR', `The request body is not valid JSON: ${error.message}`, { fields: [{ field: 'body', message: 'is not valid JSON' }] }));
    }
    return sendError(core, request, reply, apiError('INTERNAL_ERROR', `The sandbox failed: ${error.message}`, null));
  });

  const pathMethods = methodsByPath(operations);
  const noOperation = (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.sandbox) request.sandbox = { mode: 'test', route: {} };
    const path = request.url.split('?')[0]!;
    const match = pathMethods.find((r) => r.re.test(path));
    if (match && !match.methods.has(request.method)) {
      const allowed = [...match.methods].join(', ');
      reply.header('Allow', allowed);
      return sendError(core, request, reply, outsideOperations(405, `${request.method} is not an operation of ${path}; it accepts ${allowed}.`, {
        method: request.method,
        allowed_methods: [...match.methods],
      }));
    }
    return sendError(core, request, reply, apiError('RESOURCE_NOT_FOUND', `No operation at ${request.method} ${path}.${basePathHint(request.method, path, operations)}`, null));
  };
  app.setNotFoundHandler(noOperation);

  /** The route options of an operation at a base path (its method, url and schema are the document's). */
  const routeOptions = (prefix: string, { operationId, method, openapiPath }: DocumentRoute) => {
    const operation = operations.find((o) => o.operationId === operationId)!;
    const config: RouteConfig = { operation, wrongHost: prefix === '/v1' && operation.altHost };
    const handler = handlers[operationId as OperationId] as ((call: Call<OperationId>) => unknown) | undefined;
    return {
      config,
      // A body with a long string field (a proof-of-address file, up to 10 MB base64-encoded) may exceed the default.
      bodyLimit: Math.max(BODY_LIMIT_BYTES, operation.longestBodyString + 65_536),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        if (!handler) {
          throw outsideOperations(501, `${method.toUpperCase()} ${openapiPath} (${operationId}) is not implemented in the sandbox yet.`, {
            operation_id: operationId,
            not_implemented: true,
          });
        }
        const call = { account: request.sandbox.account!, params: request.params, query: request.query, body: request.body, core } as Call<OperationId>;
        type Outcome = { data: unknown; pagination?: unknown; headers?: Record<string, string> };
        const envelope = (result: Outcome) => ({
          success: true,
          data: result.data,
          meta: meta(core, request),
          ...(result.pagination ? { pagination: result.pagination } : {}),
        });
        // A synchronous handler's change and the idempotent answer to it commit in one transaction, so a crash
        // cannot keep the one without the other. (An asynchronous handler's answer is kept when it is sent.)
        const idem = request.sandbox.idempotency;
        let body: ReturnType<typeof envelope> | undefined;
        const started = core.db.transaction(() => {
          let value: Outcome | Promise<Outcome>;
          try {
            value = handler(call) as Outcome | Promise<Outcome>;
          } catch (error) {
            // A failure that is itself a fact (a provider failed the operation; its event is sent) commits what
            // was recorded before it; any other error rolls the operation back.
            if (error instanceof ApiError && error.keepsChanges) return { failed: error };
            throw error;
          }
          if (value instanceof Promise) return { later: value };
          body = envelope(value);
          if (idem && !idem.replayed) {
            idempotency.keep(call.account.id, idem.key, { fingerprint: idem.fingerprint, status: 200, body: JSON.stringify(body) }, core.clock.now());
            idem.kept = true;
          }
          return { now: value };
        });
        if (started.failed) throw started.failed;
        const result: Outcome = started.later ? await started.later : started.now!;
        for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
        return reply.code(200).send(body ?? envelope(result));
      },
    };
  };

  const contractRoutes = await documentRoutes(document);
  const altPaths = new Set(operations.filter((o) => o.altHost).map((o) => o.path));
  for (const prefix of ['/v1', '/api/v1']) {
    await app.register(
      async (scope) => {
        for (const route of contractRoutes) {
          if (prefix === '/v1' || altPaths.has(route.openapiPath)) scope.route({ method: route.method, url: route.url, schema: route.schema, ...routeOptions(prefix, route) });
        }
      },
      { prefix },
    );
  }
  if (options.extra) await app.register(async (scope) => options.extra!(scope));
  return app;
}
