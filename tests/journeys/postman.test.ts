// A user imports the docs site's Postman collection and runs it against the seeded sandbox: `npm run docs` in the
// clean clone, the collection file the site publishes, `npm run sandbox -- --seed examples` as the README has it,
// and Newman (Postman's command-line runner, from the clone's node_modules) with the collection's address and key
// variables set to that sandbox. Every request has to answer 2xx, except the few whose success example the seeded
// account's state refuses, which have to get exactly the refusal the contract documents for them. The collection
// has one request per operation, each with the operation's request example (no request of an error example).
// Each request that answers otherwise is printed in one line: method, path, status, error code and reason.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, inject } from 'vitest';
import { COLLECTION_FILE } from '../../scripts/docs/collection.ts';
import { contractModel } from '../../src/contract/model.ts';
import { background, journey, sh } from './support.ts';

type JsonObject = { [key: string]: any };

/**
 * The requests whose success example the seeded account refuses, with the `details.reason` of the refusal: the seed
 * approves the example customer's KYC and proof of address and confirms the example quote (which makes the example
 * payout), and that customer's identity matches its documents. Each reason is checked against the contract below.
 */
const REFUSED_ON_THE_SEEDED_ACCOUNT: Record<string, string> = {
  'POST /kyc/{customerCode}/link': 'kyc_already_approved',
  'POST /kyc/{customerCode}/synchronize': 'identity_not_mismatched',
  'POST /poa/{customerCode}/document': 'poa_already_approved',
  'POST /payouts': 'quote_already_confirmed',
};

/** The status under which the operation documents an error example with `details.reason` `reason`. */
function documentedStatus(openapi: JsonObject, operation: string, reason: string): number | undefined {
  const [method, pathKey] = operation.split(' ') as [string, string];
  const responses = contractModel(openapi).byPath(method, pathKey)?.responses ?? [];
  const documented = responses.find((r) =>
    (r.json?.examples ?? []).some((e) => (e.value as JsonObject)?.error?.details?.reason === reason),
  );
  return documented ? Number(documented.status) : undefined;
}

const quote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

journey("Postman: the docs site's collection runs with Newman against npm run sandbox -- --seed examples", async () => {
  const clone = inject('clone');
  const openapi = JSON.parse(fs.readFileSync(path.join(clone, 'generated', 'openapi.json'), 'utf8')) as JsonObject;
  const expected = Object.entries(REFUSED_ON_THE_SEEDED_ACCOUNT).map(([operation, reason]) => ({
    operation,
    reason,
    status: documentedStatus(openapi, operation, reason),
  }));
  expect(
    expected.filter((e) => e.status === undefined).map((e) => `${e.operation} documents no example with details.reason ${e.reason}`),
  ).toEqual([]);

  // The site as `npm run docs` builds it; its last line names the folder it wrote.
  const docs = await sh('npm run docs', { cwd: clone, check: true, timeoutMs: 600_000 });
  const siteDir = /Docs site written to (\S+?)\/? \(/.exec(docs.output)?.[1];
  expect(siteDir, docs.output.slice(-2000)).toBeDefined();
  const collectionFile = path.resolve(clone, siteDir!, COLLECTION_FILE);
  const collection = JSON.parse(fs.readFileSync(collectionFile, 'utf8')) as JsonObject;
  const sent = (collection.item as JsonObject[]).flatMap((folder) => folder.item ?? []).length;

  const sandbox = background('npm run sandbox -- --seed examples --port 0', { cwd: clone });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'journey-postman-'));
  try {
    // The seed line comes once the example records exist (the port answers earlier); it names their key.
    const seedLine = /example records are seeded for (\S+?):/;
    await sandbox.waitFor(seedLine);
    const key = seedLine.exec(sandbox.output())![1]!;
    const origin = new URL(/Sandbox of the partner API on (\S+)/.exec(sandbox.output())![1]!).origin;

    // The collection's own variables, pointed at this sandbox: its addresses (the sandbox's default origin
    // replaced by this one's) and the variable its bearer auth reads, set to the seeded key.
    const keyVariable = /^\{\{(.+)\}\}$/.exec(collection.auth?.bearer?.find((b: JsonObject) => b.key === 'token')?.value ?? '')?.[1];
    expect(keyVariable, JSON.stringify(collection.auth)).toBeDefined();
    const vars = (collection.variable as JsonObject[]).flatMap((v) => {
      if (v.key === keyVariable) return [`${v.key}=${key}`];
      return /^https?:\/\//.test(String(v.value)) ? [`${v.key}=${String(v.value).replace(new URL(v.value).origin, origin)}`] : [];
    });
    const report = path.join(work, 'newman.json');
    const newman = await sh(
      `npx --no newman run ${quote(collectionFile)} ${vars.map((v) => `--env-var ${quote(v)}`).join(' ')} --reporters json --reporter-json-export ${quote(report)}`,
      { cwd: clone, timeoutMs: 300_000 },
    );
    expect(fs.existsSync(report), `newman wrote no report (exit ${newman.code}):\n${newman.output.slice(-3000)}`).toBe(true);
    const run = (JSON.parse(fs.readFileSync(report, 'utf8')) as JsonObject).run as JsonObject;

    const failures: string[] = [];
    for (const execution of run.executions as JsonObject[]) {
      const template = `/${(execution.item.request.url.path as string[]).join('/').replace(/:(\w+)/g, '{$1}')}`;
      const method = String(execution.request.method);
      const where = `${method} ${decodeURIComponent(`/${(execution.request.url.path as string[]).join('/')}`)}`;
      const status = execution.response?.code as number | undefined;
      if (status === undefined) {
        failures.push(`${where}: no answer (${execution.requestError?.message ?? 'request error'})`);
        continue;
      }
      let error: JsonObject = {};
      try {
        error = JSON.parse(Buffer.from(execution.response.stream.data).toString('utf8')).error ?? {};
      } catch {
        // not JSON: no error code to print
      }
      const refusal = expected.find((e) => e.operation === `${method} ${template}`);
      const ok = refusal
        ? (status >= 200 && status < 300) || (status === refusal.status && error.details?.reason === refusal.reason)
        : status >= 200 && status < 300;
      if (!ok) {
        const wanted = refusal ? `2xx or ${refusal.status} ${refusal.reason}` : '2xx';
        const field = error.details?.fields?.[0];
        const why = [error.code, error.details?.reason, field && `${field.field} ${field.message}`].filter(Boolean).join(' ');
        failures.push(`${where}: ${status} ${why} (expected ${wanted})`);
      }
    }
    console.log(
      `newman: ${run.stats.requests.total} requests sent of ${sent} in the collection, ${failures.length} answered otherwise than expected`,
    );
    for (const line of failures) console.log(`  ${line}`);
    expect(run.stats.requests.total).toBe(sent);
    expect(failures).toEqual([]);
  } finally {
    sandbox.interrupt();
    await Promise.race([sandbox.exited, new Promise((r) => setTimeout(r, 5_000))]);
    sandbox.kill();
    fs.rmSync(work, { recursive: true, force: true });
  }
});
