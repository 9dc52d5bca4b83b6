// The code samples of the rendered reference (scripts/docs/code-samples.ts): every operation of the docs copy
// has a sample in every language (the other languages' checks: code-sample-languages.test.ts); every TypeScript sample type-checks against the generated types (one
// compile of all of them, the package import mapped to src/); every curl sample's body validates against the
// operation's request schema; and every curl sample, run as written by curl against an in-process sandbox
// with the example records, gets a 2xx, except the few whose example meets a documented refusal (listed).
// Every TypeScript sample runs too, in-process with the client against another such sandbox. Broken samples
// show that each check can fail.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse as parseShell } from 'shell-quote';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  codeSamples,
  PACKAGE_NAME,
  redocCodeSamplesOption,
  SAMPLE_API_KEY,
  SAMPLE_LANGUAGES,
  SANDBOX_ORIGIN,
  type OperationSamples,
} from '../../scripts/docs/code-samples.ts';
import { docsDocument } from '../../scripts/docs/reference.ts';
import { exampleOperations } from '../../scripts/lib/openapi-examples.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { get, pointer, type JsonObject } from '../../scripts/lib/pointer.ts';
import { resolvePointer, SchemaValidator } from '../../scripts/lib/schema.ts';
import { isPartnerApiError } from '../../src/index.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { contractModel, type JsonObject as ContractDocument } from '../../src/contract/model.ts';

const run = promisify(execFile);
const openapi = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated/openapi.json'), 'utf8')) as JsonObject;
const docs = docsDocument(openapi);
const operations = codeSamples(openapi);
const byId = new Map(operations.map((op) => [op.operationId, op]));
const sample = (op: OperationSamples, label: string): string => op.samples.find((s) => s.label === label)!.source;
const schemas = new SchemaValidator(openapi, 'openapi');

describe('every operation has its samples', () => {
  it('each operation of the docs copy has one sample per language, curl and TypeScript first', () => {
    const found: string[] = [];
    for (const { path: pathKey, method, node: op } of contractModel(docs as ContractDocument).operations) {
      {
        const samples = (op['x-codeSamples'] ?? []) as { lang: string; label: string; source: string }[];
        expect(
          samples.map((s) => s.label),
          `${method} ${pathKey}`,
        ).toEqual(SAMPLE_LANGUAGES.map((l) => l.label));
        expect(
          samples.slice(0, 2).map((s) => s.label),
          `${method} ${pathKey}`,
        ).toEqual(['curl', 'TypeScript']);
        expect(
          samples.map((s) => s.lang),
          `${method} ${pathKey}`,
        ).toEqual(SAMPLE_LANGUAGES.map((l) => l.lang));
        for (const s of samples) expect(s.source.trim().length, `${method} ${pathKey} ${s.label}`).toBeGreaterThan(20);
        found.push(String(op.operationId));
      }
    }
    expect(found).toHaveLength(exampleOperations(openapi).length);
    expect(found).toHaveLength(57);
    expect(new Set(found).size).toBe(found.length);
  });

  it('the samples are in the docs copy only: generated/openapi.json and spec/ have none', () => {
    expect(JSON.stringify(openapi)).not.toContain('x-codeSamples');
    const specFiles = fs.readdirSync(path.join(ROOT, 'spec'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f));
    expect(specFiles.length).toBeGreaterThan(50);
    expect(specFiles.filter((f) => fs.readFileSync(path.join(ROOT, 'spec', f), 'utf8').includes('x-codeSamples'))).toEqual([]);
  });

  it("Redoc's config lists every language, so that no sample is hidden", () => {
    expect(redocCodeSamplesOption().codeSamples.languages.map((l) => l.lang)).toEqual(
      expect.arrayContaining(SAMPLE_LANGUAGES.map((l) => l.lang)),
    );
  });
});

// --- TypeScript samples ------------------------------------------------------------------------------------

/** The repository's strict compiler options, with the package's import mapped to src/ as a partner resolves it. */
function sampleCompilerOptions(): ts.CompilerOptions {
  const file = path.join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, file);
  return {
    ...options,
    noEmit: true,
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
    paths: {
      [PACKAGE_NAME]: [path.join(ROOT, 'src/index.ts')],
      [`${PACKAGE_NAME}/*`]: [path.join(ROOT, 'src/*/index.ts')],
    },
  };
}

/** Type-checks the sources (file name -> code) as ES modules in one program; diagnostics by file name. */
function typeCheck(sources: Record<string, string>): Map<string, string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-samples-'));
  try {
    const files = Object.entries(sources).map(([name, code]) => {
      const file = path.join(dir, `${name}.mts`);
      fs.writeFileSync(file, `${code}\n`);
      return file;
    });
    const program = ts.createProgram(files, sampleCompilerOptions());
    const byFile = new Map<string, string[]>();
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const name = d.file ? path.basename(d.file.fileName, '.mts') : '(global)';
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      byFile.set(name, [...(byFile.get(name) ?? []), `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`]);
    }
    return byFile;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the TypeScript samples', () => {
  const withdraw = sample(byId.get('withdrawFromCard')!, 'TypeScript');
  const getCard = sample(byId.get('getCard')!, 'TypeScript');
  // Deliberately broken copies of real samples, each with the error it must get.
  const broken: Record<string, [code: string, original: string, error: RegExp]> = {
    'broken-amount-as-string': [
      withdraw.replace('amount: 50', "amount: '50'"),
      withdraw,
      /Type 'string' is not assignable to type 'number'/,
    ],
    'broken-unknown-path': [
      withdraw.replace("'/cards/{code}/withdraw'", "'/cards/{code}/withdraws'"),
      withdraw,
      /'"\/cards\/\{code\}\/withdraws"' is not assignable/,
    ],
    'broken-missing-path-parameter': [
      withdraw.replace(/\n {2}params: .*\n/, '\n'),
      withdraw,
      /'\{ body: \{ amount: number; \}; \}' is not assignable/,
    ],
    'broken-wrong-method': [getCard.replace('client.call.GET', 'client.call.DELETE'), getCard, /PathsWithMethod<"delete"(, paths)?>/],
  };
  let diagnostics: Map<string, string[]>;
  beforeAll(() => {
    const wrong = Object.fromEntries(Object.entries(broken).map(([name, [code]]) => [name, code]));
    diagnostics = typeCheck({ ...Object.fromEntries(operations.map((op) => [op.operationId, sample(op, 'TypeScript')])), ...wrong });
  }, 120_000);

  it(`all ${57} type-check against the generated types, importing ${PACKAGE_NAME} (one compile)`, () => {
    const problems = operations.flatMap((op) => (diagnostics.get(op.operationId) ?? []).map((d) => `${op.operationId}.mts:${d}`));
    expect([...(diagnostics.get('(global)') ?? []), ...problems]).toEqual([]);
  });

  it('a broken sample is reported (the check can fail)', () => {
    for (const [name, [code, original, error]] of Object.entries(broken)) {
      expect(code, `${name} is a change of the sample`).not.toBe(original);
      expect((diagnostics.get(name) ?? []).join('\n'), name).toMatch(error);
    }
  });

  it('each sample creates the client with the sandbox key and address and calls its own operation', () => {
    for (const op of operations) {
      const code = sample(op, 'TypeScript');
      expect(code, op.operationId).toContain(`import { createPartnerClient } from '${PACKAGE_NAME}';`);
      expect(code, op.operationId).toContain(`apiKey: '${SAMPLE_API_KEY}'`);
      expect(code, op.operationId).toContain(`client.call.${op.method}('${op.path}'`);
      const base = op.path.startsWith('/gift-cards') ? `giftCardBaseUrl: '${SANDBOX_ORIGIN}/api/v1'` : `baseUrl: '${SANDBOX_ORIGIN}/v1'`;
      expect(code, op.operationId).toContain(base);
    }
  });
});

// --- curl samples --------------------------------------------------------------------------------------------

interface ParsedCurl {
  method: string;
  url: URL;
  headers: Map<string, string>;
  /** The `-d`/`--data`/`--data-raw` argument, or the `-F` fields. */
  data?: string;
  form?: string[];
}

/** Parses a curl command as a shell would (backslash-newline continuations, quotes), with shell-quote. */
function parseCurl(source: string): ParsedCurl {
  const words = parseShell(source.replace(/\\\n/g, ' '));
  if (words.some((w) => typeof w !== 'string')) throw new Error(`shell operators in the command: ${JSON.stringify(words)}`);
  const args = words as string[];
  if (args[0] !== 'curl') throw new Error(`not a curl command: ${args[0]}`);
  let method: string | undefined;
  let url: URL | undefined;
  let data: string | undefined;
  const form: string[] = [];
  const headers = new Map<string, string>();
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg} has no value`);
      return next;
    };
    if (arg === '-X' || arg === '--request') method = value();
    else if (arg === '-H' || arg === '--header') {
      const header = value();
      const colon = header.indexOf(':');
      if (colon < 1) throw new Error(`malformed header: ${header}`);
      headers.set(header.slice(0, colon).trim().toLowerCase(), header.slice(colon + 1).trim());
    } else if (arg === '-d' || arg === '--data' || arg === '--data-raw') data = value();
    else if (arg === '-F' || arg === '--form') form.push(value());
    else if (arg.startsWith('-')) throw new Error(`unexpected option ${arg}`);
    else url = new URL(arg);
  }
  if (!url) throw new Error('no URL');
  return {
    method: method ?? (data !== undefined || form.length > 0 ? 'POST' : 'GET'),
    url,
    headers,
    ...(data !== undefined ? { data } : {}),
    ...(form.length > 0 ? { form } : {}),
  };
}

/** What is wrong with a curl sample of an operation, against the contract; [] when nothing. */
function curlProblems(op: OperationSamples, source: string): string[] {
  let curl: ParsedCurl;
  try {
    curl = parseCurl(source);
  } catch (error) {
    return [`does not parse: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  const opPtr = pointer('paths', op.path, op.method.toLowerCase());
  const operation = get(openapi, opPtr) as JsonObject;
  if (curl.method !== op.method) problems.push(`method ${curl.method}, expected ${op.method}`);
  const base = op.path.startsWith('/gift-cards') ? '/api/v1' : '/v1';
  const template = new RegExp(`^${base}${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  if (curl.url.origin !== SANDBOX_ORIGIN) problems.push(`origin ${curl.url.origin}, expected ${SANDBOX_ORIGIN}`);
  if (!template.test(curl.url.pathname)) problems.push(`path ${curl.url.pathname} does not match ${base}${op.path}`);
  if (curl.headers.get('authorization') !== `Bearer ${SAMPLE_API_KEY}`)
    problems.push('no Authorization: Bearer header with the sandbox key');

  const parameters = ((operation.parameters ?? []) as JsonObject[]).map((_, i) => {
    const ptr = resolvePointer(openapi, `${opPtr}/parameters/${i}`);
    const { name, in: where, required } = get(openapi, ptr) as JsonObject;
    return { name: String(name), in: String(where), required: required === true, ptr };
  });
  for (const name of curl.url.searchParams.keys()) {
    if (!parameters.some((p) => p.in === 'query' && p.name === name)) problems.push(`query parameter ${name} is not in the contract`);
  }
  for (const p of parameters.filter((p) => p.in === 'header')) {
    const value = curl.headers.get(p.name.toLowerCase());
    if (value === undefined) {
      if (p.required || op.method === 'POST') problems.push(`header ${p.name} is missing`);
      continue;
    }
    const error = schemas.check(`${p.ptr}/schema`, value);
    if (error) problems.push(`header ${p.name}: ${error}`);
  }

  const bodyPtr = resolvePointer(openapi, `${opPtr}/requestBody`);
  const requestBody = get(openapi, bodyPtr) as JsonObject | undefined;
  if (curl.form) problems.push('a multipart body (-F), but every request body of the contract is JSON');
  if (!requestBody) {
    if (curl.data !== undefined) problems.push('a body, but the operation takes none');
    return problems;
  }
  if (curl.data === undefined) {
    if (requestBody.required === true) problems.push('no body, but the operation requires one');
    return problems;
  }
  if (curl.headers.get('content-type') !== 'application/json') problems.push('no Content-Type: application/json');
  let body: unknown;
  try {
    body = JSON.parse(curl.data);
  } catch (error) {
    return [...problems, `body is not JSON: ${(error as Error).message}`];
  }
  const error = schemas.check(`${bodyPtr}/content/application~1json/schema`, body);
  if (error) problems.push(`body: ${error}`);
  return problems;
}

describe('the curl samples', () => {
  it('every curl sample parses, and its method, URL, headers and body follow the operation (body validated with the strict Ajv)', () => {
    const problems = operations.flatMap((op) => curlProblems(op, sample(op, 'curl')).map((p) => `${op.operationId}: ${p}`));
    expect(problems).toEqual([]);
    const withBody = operations.filter((op) => parseCurl(sample(op, 'curl')).data !== undefined);
    expect(withBody.length).toBeGreaterThanOrEqual(15);
    // One Idempotency-Key per operation: two samples sharing one would be refused (idempotency_key_reused).
    const keys = operations.filter((op) => op.method === 'POST').map((op) => parseCurl(sample(op, 'curl')).headers.get('idempotency-key'));
    expect(keys.length).toBeGreaterThanOrEqual(20);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('a broken curl sample is reported (the check can fail)', () => {
    const withdraw = byId.get('withdrawFromCard')!;
    const curl = sample(withdraw, 'curl');
    const cases: Record<string, [string, RegExp]> = {
      'amount below the minimum': [curl.replace('"amount": 50', '"amount": 1'), /body: .*amount must be >= 5/],
      'an unknown field': [curl.replace('"amount": 50', '"amount": 50, "note": "x"'), /body: .*additional properties/],
      'a body that is not JSON': [curl.replace('"amount": 50', '"amount": 50,'), /body is not JSON/],
      'no body': [curl.replace(/ \\\n {2}-d '[\s\S]*'$/, ''), /no body, but the operation requires one/],
      'an unclosed quote': [curl.replace(/'$/, ''), /does not parse|body is not JSON|unexpected option/],
      'a wrong method': [curl.replace('-X POST', '-X PUT'), /method PUT, expected POST/],
      'an invalid Idempotency-Key': [curl.replace(/Idempotency-Key: [\w-]+/, 'Idempotency-Key: not a key!'), /header Idempotency-Key/],
      'no key': [curl.replace(/ \\\n {2}-H 'Authorization: [^']+'/, ''), /no Authorization/],
      'a multipart body': [curl.replace(/-d '[\s\S]*'$/, "-F 'amount=50'"), /multipart/],
      'a query parameter the contract does not have': [
        sample(byId.get('listCards')!, 'curl').replace('?page=1', '?pages=1'),
        /query parameter pages/,
      ],
    };
    for (const [name, [source, expected]] of Object.entries(cases)) {
      const op = name.includes('query') ? byId.get('listCards')! : withdraw;
      expect(source, name).not.toBe(sample(op, 'curl'));
      expect(curlProblems(op, source).join('\n'), name).toMatch(expected);
    }
  });
});

// --- curl samples against the sandbox -----------------------------------------------------------------------

/**
 * The samples whose example, in the seeded sandbox, meets a documented refusal: the status, error code and
 * `details.reason` they get, and why no consistent seeded state lets them succeed (there is one example
 * customer and one example quote/payout code; see docs/sandbox.md, "Example records"). Anything else must
 * answer 2xx.
 */
const EXPECTED_REFUSALS: Record<string, { status: number; code: string; reason: string; why: string }> = {
  createKycLink: {
    status: 422,
    code: 'VALIDATION_ERROR',
    reason: 'kyc_already_approved',
    why: "the example customer's KYC is approved: createVirtualAccount needs it at level full",
  },
  synchronizeKycIdentity: {
    status: 422,
    code: 'VALIDATION_ERROR',
    reason: 'identity_not_mismatched',
    why: 'the example customer is not restricted: the card, payout and other samples need it active',
  },
  uploadPoaDocument: {
    status: 422,
    code: 'VALIDATION_ERROR',
    reason: 'poa_already_approved',
    why: "the example customer's proof of address is approved: createVirtualAccount needs level full",
  },
  createPayout: {
    status: 422,
    code: 'VALIDATION_ERROR',
    reason: 'quote_already_confirmed',
    why: "the example quote is the example payout (a payout keeps its quote's code), which getPayout reads; a quote also expires after 5 minutes",
  },
};
/** Run last, in this order: they end the example records that the other samples use. */
const DESTRUCTIVE = ['terminateCard', 'deleteBeneficiary', 'deleteWebhookEndpoint', 'deactivateCustomer'];

interface Outcome {
  status: number;
  code?: string | undefined;
  reason?: string | undefined;
}

/**
 * Runs every operation's sample (the destructive ones last) and compares each outcome with what is expected:
 * a 2xx, or the listed refusal. Returns what differs and how many succeeded.
 */
async function runEverySample(runOne: (op: OperationSamples) => Promise<Outcome>): Promise<{ unexpected: string[]; succeeded: number }> {
  expect(DESTRUCTIVE.every((id) => byId.has(id))).toBe(true);
  const ordered = [...operations.filter((op) => !DESTRUCTIVE.includes(op.operationId)), ...DESTRUCTIVE.map((id) => byId.get(id)!)];
  const unexpected: string[] = [];
  let succeeded = 0;
  for (const op of ordered) {
    const { status, code, reason } = await runOne(op);
    const expected = EXPECTED_REFUSALS[op.operationId];
    const got = `${status} ${code ?? ''} ${reason ?? ''}`.trim();
    if (!expected) {
      if (status >= 200 && status < 300) succeeded++;
      else unexpected.push(`${op.operationId}: ${got}, expected 2xx`);
    } else if (status !== expected.status || code !== expected.code || reason !== expected.reason) {
      unexpected.push(
        `${op.operationId}: ${got}, expected ${expected.status} ${expected.code} ${expected.reason} (${expected.why}); if it now succeeds, remove it from EXPECTED_REFUSALS`,
      );
    }
  }
  return { unexpected, succeeded };
}

/** A sandbox with the example records for the samples' key, on a free port. */
function seededSandbox() {
  const state: { sandbox?: RunningSandbox } = {};
  beforeAll(async () => {
    state.sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seedExamples: SAMPLE_API_KEY, rateLimit: false });
  }, 60_000);
  afterAll(async () => {
    await state.sandbox?.close();
  });
  return () => new URL(state.sandbox!.baseUrl).origin;
}

describe('the curl samples against the sandbox', () => {
  const origin = seededSandbox();

  /** Runs a curl sample with bash as written, addressed to the test's sandbox. */
  async function runCurl(source: string): Promise<Outcome> {
    const command = source.replace(SANDBOX_ORIGIN, origin());
    const { stdout } = await run('bash', ['-c', `${command} -sS -w '\\n%{http_code}'`], { timeout: 20_000 });
    const lines = stdout.trimEnd().split('\n');
    const status = Number(lines.pop());
    const body = JSON.parse(lines.join('\n')) as { error?: { code?: string; details?: { reason?: string } | null } };
    return { status, code: body.error?.code, reason: body.error?.details?.reason };
  }

  it('every curl sample runs with curl: 2xx, or its listed refusal', async () => {
    const { unexpected, succeeded } = await runEverySample((op) => runCurl(sample(op, 'curl')));
    expect(unexpected).toEqual([]);
    expect(succeeded).toBe(operations.length - Object.keys(EXPECTED_REFUSALS).length);
  }, 120_000);

  it('a broken curl sample is refused by the sandbox (the run can fail)', async () => {
    const outcome = await runCurl(sample(byId.get('getCard')!, 'curl').replace('/cards/7c9e6679', '/cards/00000000'));
    expect(outcome).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND' });
  });
});

describe('the TypeScript samples against the sandbox', () => {
  const origin = seededSandbox();
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-samples-run-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /**
   * Runs a TypeScript sample as a module, with the package import pointed at src/ and the sandbox's address:
   * 200 when its call resolved (and it printed the data), else the status and code of the PartnerApiError.
   */
  async function runTypeScript(name: string, source: string): Promise<Outcome> {
    const file = path.join(dir, `${name}.ts`);
    const code = source.replace(`from '${PACKAGE_NAME}'`, `from '${path.join(ROOT, 'src/index.ts')}'`).replaceAll(SANDBOX_ORIGIN, origin());
    fs.writeFileSync(file, code);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import(file);
      const printed = log.mock.calls.at(-1)?.[0];
      return printed === undefined ? { status: 0, code: 'printed no data' } : { status: 200 };
    } catch (error) {
      if (isPartnerApiError(error))
        return { status: error.status, code: error.code, reason: (error.details as { reason?: string } | null)?.reason };
      return { status: 0, code: String(error) };
    } finally {
      log.mockRestore();
    }
  }

  it('every TypeScript sample runs with the client: its data, or its listed refusal', async () => {
    const { unexpected, succeeded } = await runEverySample((op) => runTypeScript(op.operationId, sample(op, 'TypeScript')));
    expect(unexpected).toEqual([]);
    expect(succeeded).toBe(operations.length - Object.keys(EXPECTED_REFUSALS).length);
  }, 120_000);

  it('a broken TypeScript sample throws the API error (the run can fail)', async () => {
    const broken = sample(byId.get('getCard')!, 'TypeScript').replace("code: '7c9e6679", "code: '00000000");
    expect(await runTypeScript('broken-getCard', broken)).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND' });
  });
});
