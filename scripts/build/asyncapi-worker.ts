// The AsyncAPI validation of the build in a worker thread: compiling the AsyncAPI 3.0 schema (every
// protocol binding included) takes the longest of the validators, so it runs beside the OpenAPI
// validation and the type generation instead of after them.
import nodeModule from 'node:module';
import { Worker, parentPort, workerData } from 'node:worker_threads';
import type { BundleProblem } from './validate.ts';

const ROLE = 'asyncapi-validator';
type Answer = { problems: BundleProblem[] } | { error: string };

/** Starts the worker now (it loads the parser); `problems(file)` validates a bundle; `close()` stops it. */
export function startAsyncApiValidator(): { problems(file: string): Promise<BundleProblem[]>; close(): Promise<void> } {
  const worker = new Worker(new URL(import.meta.url), { workerData: { role: ROLE } });
  const failed = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the AsyncAPI validator stopped (exit ${code})`)));
  });
  failed.catch(() => {}); // reported only when a result is awaited
  return {
    problems(file) {
      const answer = new Promise<BundleProblem[]>((resolve, reject) => {
        worker.once('message', (a: Answer) => ('error' in a ? reject(new Error(a.error)) : resolve(a.problems)));
      });
      worker.postMessage(file);
      return Promise.race([answer, failed]);
    },
    async close() {
      await worker.terminate();
    },
  };
}

if ((workerData as { role?: string } | null)?.role === ROLE && parentPort) {
  const port = parentPort;
  nodeModule.enableCompileCache?.(); // the worker loads Ajv: see cli.ts
  const { asyncApiProblems } = await import('./validate.ts');
  port.on('message', (file: string) => {
    asyncApiProblems(file).then(
      (problems) => port.postMessage({ problems } satisfies Answer),
      (error: unknown) => port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies Answer),
    );
  });
}
