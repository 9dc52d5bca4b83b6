// The samples httpsnippet writes for the reference (scripts/docs/code-samples.ts): Python, Go, Java, C#, PHP and
// Node's fetch, for every operation. Each language is checked by its own compiler or interpreter, all samples of a
// language in one run where the tool allows it:
//   Python   python3 -m py_compile            (syntax)
//   Go       gofmt -e                          (syntax; Debian's golang-go)
//   Java     javac, each sample in a class     (compiled: syntax and types, java.net.http of the JDK)
//   C#       mcs, each sample in a class       (compiled: syntax and types, System.Net.Http; Debian's mono-mcs)
//   PHP      php -l                            (syntax; Debian's php-cli)
//   Node     run with Node's fetch against a seeded sandbox: 2xx, or the refusal its example meets
// A checker that is not installed fails the run in CI (.ci/run installs them) and skips its language elsewhere,
// saying which package to install. Broken samples show that each check can fail.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeSamples,
  SAMPLE_API_KEY,
  SAMPLE_LANGUAGES,
  SANDBOX_ORIGIN,
  type OperationSamples,
  type SampleLabel,
} from '../../scripts/docs/code-samples.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { JsonObject } from '../../scripts/lib/pointer.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';

const run = promisify(execFile);
const openapi = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated/openapi.json'), 'utf8')) as JsonObject;
const operations = codeSamples(openapi);
const sample = (op: OperationSamples, label: SampleLabel): string => op.samples.find((s) => s.label === label)!.source;

/** Whether a command is on the PATH. */
function installed(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A checker: in CI it must be there; elsewhere its language is skipped when it is not. */
function checker(command: string, aptPackage: string) {
  const present = installed(command);
  if (!present && process.env.CI) throw new Error(`${command} is missing: apt-get install -y ${aptPackage} (.ci/run does)`);
  if (!present)
    console.warn(`code samples: ${command} is not installed (apt-get install -y ${aptPackage}); its language is not checked here`);
  return { present };
}

/** Writes `files` (name -> text) into a new temporary directory; returns it. */
function writeFiles(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-sample-languages-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), `${text}\n`);
  return dir;
}

/** Runs a checker; its exit code and what it printed. */
async function check(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** A Java sample as a class of its own (the sample is the body of `main`). */
const javaClass = (name: string, code: string) =>
  [
    'import java.net.URI;',
    'import java.net.http.HttpClient;',
    'import java.net.http.HttpRequest;',
    'import java.net.http.HttpResponse;',
    '',
    `public class ${name} {`,
    '  public static void main(String[] args) throws Exception {',
    code.replace(/^/gm, '    '),
    '  }',
    '}',
  ].join('\n');

/** A C# sample as a class of its own: its `using` lines on top, the rest the body of an async Main. */
function csharpClass(name: string, code: string): string {
  const lines = code.split('\n');
  const usings = lines.filter((l) => /^using [\w.]+;$/.test(l));
  const body = lines.filter((l) => !/^using [\w.]+;$/.test(l));
  return [
    'using System;',
    'using System.Net.Http;',
    'using System.Threading.Tasks;',
    ...usings,
    '',
    `class ${name} {`,
    '  static async Task Main() {',
    body.join('\n').replace(/^/gm, '    '),
    '  }',
    '}',
  ].join('\n');
}

/** Every sample of a language, plus a broken copy of one: file name -> text. */
function samplesOf(
  label: SampleLabel,
  file: (op: string) => string,
  wrap: (name: string, code: string) => string = (_, c) => c,
  breakIt: (code: string) => string,
) {
  const files: Record<string, string> = {};
  for (const op of operations) files[file(op.operationId)] = wrap(file(op.operationId).replace(/\.\w+$/, ''), sample(op, label));
  const withdraw = operations.find((op) => op.operationId === 'withdrawFromCard')!;
  const broken = breakIt(sample(withdraw, label));
  expect(broken, `the broken ${label} sample is a change of the real one`).not.toBe(sample(withdraw, label));
  files[file('brokenSample')] = wrap(file('brokenSample').replace(/\.\w+$/, ''), broken);
  return files;
}

/**
 * Writes every sample of a language and a broken copy of one into a temporary directory and runs `check` on
 * it with the file names of the real samples and of the broken one; removes the directory after.
 */
async function withSamples(
  label: SampleLabel,
  file: (op: string) => string,
  wrap: ((name: string, code: string) => string) | undefined,
  breakIt: (code: string) => string,
  check: (dir: string, names: string[], broken: string) => Promise<void>,
): Promise<void> {
  const dir = writeFiles(samplesOf(label, file, wrap, breakIt));
  try {
    const broken = file('brokenSample');
    const names = fs.readdirSync(dir).filter((f) => f !== broken);
    expect(names).toHaveLength(57);
    await check(dir, names, broken);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the samples in every language', () => {
  it('each operation has one sample per language, in the menu order, each from the same request', () => {
    expect(operations).toHaveLength(57);
    for (const op of operations) {
      expect(
        op.samples.map((s) => s.label),
        op.operationId,
      ).toEqual(SAMPLE_LANGUAGES.map((l) => l.label));
      const url = /'(http:\/\/127\.0\.0\.1:4020[^']*)'/.exec(sample(op, 'curl'))![1]!;
      for (const label of ['Python', 'Go', 'Java', 'C#', 'PHP', 'Node (fetch)'] as const) {
        // Python's requests sends the query as params: the URL up to the query is in every sample.
        expect(sample(op, label), `${op.operationId} ${label}`).toContain(url.split('?')[0]);
        expect(sample(op, label), `${op.operationId} ${label}`).toContain(`Bearer ${SAMPLE_API_KEY}`);
      }
    }
  });
});

describe('Python samples (python3 -m py_compile)', () => {
  const { present } = checker('python3', 'python3');
  it.skipIf(!present)(
    'all compile, and a broken one does not',
    async () => {
      await withSamples(
        'Python',
        (op) => `${op}.py`,
        undefined,
        (code) => code.replace('import requests', 'import requests('),
        async (dir, names, brokenFile) => {
          expect(await check('python3', ['-m', 'py_compile', ...names], dir)).toEqual({ code: 0, output: '' });
          const broken = await check('python3', ['-m', 'py_compile', brokenFile], dir);
          expect(broken.code).not.toBe(0);
          expect(broken.output).toMatch(/SyntaxError/);
        },
      );
    },
    120_000,
  );
});

describe('Go samples (gofmt -e)', () => {
  const { present } = checker('gofmt', 'golang-go');
  it.skipIf(!present)(
    'all parse, and a broken one does not',
    async () => {
      await withSamples(
        'Go',
        (op) => `${op}.go`,
        undefined,
        (code) => code.replace('func main() {', 'func main() {{'),
        async (dir, names, brokenFile) => {
          const all = await check('gofmt', ['-e', '-l', ...names], dir);
          expect(all.code, all.output).toBe(0);
          const broken = await check('gofmt', ['-e', '-l', brokenFile], dir);
          expect(broken.code).not.toBe(0);
          expect(broken.output).toMatch(/brokenSample\.go:\d+:\d+/);
        },
      );
    },
    120_000,
  );
});

describe('Java samples (javac)', () => {
  const { present } = checker('javac', 'default-jdk-headless');
  it.skipIf(!present)(
    'all compile, each as the body of a main method, and a broken one does not',
    async () => {
      await withSamples(
        'Java',
        (op) => `S_${op}.java`,
        javaClass,
        (code) => code.replace('.build();', '.built();'),
        async (dir, names, brokenFile) => {
          const all = await check('javac', ['-proc:none', '-d', 'classes', ...names], dir);
          expect(all.code, all.output).toBe(0);
          const broken = await check('javac', ['-proc:none', '-d', 'classes', brokenFile], dir);
          expect(broken.code).not.toBe(0);
          expect(broken.output).toMatch(/cannot find symbol[\s\S]*built/);
        },
      );
    },
    180_000,
  );
});

describe('C# samples (mcs)', () => {
  const { present } = checker('mcs', 'mono-mcs');
  it.skipIf(!present)(
    'all compile, each as the body of an async Main, and a broken one does not',
    async () => {
      const breakIt = (code: string) => code.replace('client.SendAsync(request)', 'client.SendAsyncc(request)');
      await withSamples(
        'C#',
        (op) => `S_${op}.cs`,
        csharpClass,
        breakIt,
        async (dir, names, brokenFile) => {
          const args = ['-target:library', '-r:System.Net.Http.dll', '-nowarn:1591'];
          const all = await check('mcs', [...args, '-out:samples.dll', ...names], dir);
          expect(all.code, all.output).toBe(0);
          const broken = await check('mcs', [...args, '-out:broken.dll', brokenFile], dir);
          expect(broken.code).not.toBe(0);
          expect(broken.output).toMatch(/SendAsyncc/);
        },
      );
    },
    180_000,
  );
});

describe('PHP samples (php -l)', () => {
  const { present } = checker('php', 'php-cli');
  it.skipIf(!present)(
    'all parse, and a broken one does not',
    async () => {
      await withSamples(
        'PHP',
        (op) => `${op}.php`,
        undefined,
        (code) => code.replace('$curl = curl_init();', '$curl = curl_init(;'),
        async (dir, names, brokenFile) => {
          const problems: string[] = [];
          for (const name of names) {
            const result = await check('php', ['-l', name], dir);
            if (result.code !== 0) problems.push(`${name}: ${result.output.trim()}`);
          }
          expect(problems).toEqual([]);
          const broken = await check('php', ['-l', brokenFile], dir);
          expect(broken.code).not.toBe(0);
          expect(broken.output).toMatch(/syntax error/i);
        },
      );
    },
    180_000,
  );
});

describe('Node fetch samples, run against a seeded sandbox', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seedExamples: SAMPLE_API_KEY, rateLimit: false });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-samples-node-'));
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs a sample as a module with the sandbox's address; the status of the response its fetch got. */
  async function runNode(name: string, source: string): Promise<number> {
    const file = path.join(dir, `${name}.mjs`);
    fs.writeFileSync(file, source.replaceAll(SANDBOX_ORIGIN, new URL(sandbox.baseUrl).origin));
    const original = globalThis.fetch;
    const log = console.log;
    let status = 0;
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      const response = await original(...args);
      status = response.status;
      return response;
    };
    console.log = () => {};
    try {
      await import(file);
    } finally {
      globalThis.fetch = original;
      console.log = log;
    }
    return status;
  }

  it('every sample gets an answer in the contract (2xx, or the 422 of the refusal its example meets); a broken one gets 404', async () => {
    // The destructive ones last, as for the curl and TypeScript runs (tests/docs/code-samples.test.ts).
    const last = ['terminateCard', 'deleteBeneficiary', 'deleteWebhookEndpoint', 'deactivateCustomer'];
    const ordered = [
      ...operations.filter((op) => !last.includes(op.operationId)),
      ...last.map((id) => operations.find((op) => op.operationId === id)!),
    ];
    const statuses: Record<string, number> = {};
    for (const op of ordered) statuses[op.operationId] = await runNode(op.operationId, sample(op, 'Node (fetch)'));
    const refused = Object.entries(statuses).filter(([, s]) => s < 200 || s >= 300);
    // The same four examples meet a documented refusal as with curl and TypeScript.
    expect(Object.fromEntries(refused)).toEqual({
      createKycLink: 422,
      synchronizeKycIdentity: 422,
      uploadPoaDocument: 422,
      createPayout: 422,
    });
    const getCard = sample(operations.find((op) => op.operationId === 'getCard')!, 'Node (fetch)');
    expect(await runNode('broken', getCard.replace('/cards/7c9e6679', '/cards/00000000'))).toBe(404);
  }, 180_000);
});
