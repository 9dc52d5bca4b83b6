// The sandbox's command line in a process of its own: src/sandbox/cli.ts with tsx as a loader of that very
// process (so its pid is the server's), or the compiled dist/sandbox/cli.js (the package's bin, what `npx`
// runs; `npm run build:lib` makes it). Used by `npm start` and the sandbox benchmark.
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './paths.ts';

export const DEFAULT_SANDBOX_PORT = 4020;

export interface SandboxProcess {
  child: ChildProcess;
  /** `http://HOST:PORT` */
  url: string;
  baseUrl: string;
  simulationUrl: string;
  /** Resolves with the exit code (or signal) when the process ends. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface SandboxProcessOptions {
  port: number;
  host?: string;
  args?: string[];
  stderr?: 'inherit' | 'ignore';
  /** `source` (default): src/sandbox/cli.ts through tsx. `compiled`: dist/sandbox/cli.js, built beforehand. */
  entry?: 'source' | 'compiled';
  /** Flags of the child's Node, before the entry point (`--import ./probe.ts`). */
  nodeArgs?: string[];
  /** Opens an IPC channel to the child (`child.send`, `child.on('message')`). */
  ipc?: boolean;
}

/** Starts the sandbox's CLI with `--port <port> --host <host> ...args` and resolves once it listens. */
export function startSandboxProcess(options: SandboxProcessOptions): Promise<SandboxProcess> {
  const host = options.host ?? '127.0.0.1';
  const entry = options.entry === 'compiled' ? ['dist/sandbox/cli.js'] : ['--import', 'tsx', 'src/sandbox/cli.ts'];
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), ...entry, '--port', String(options.port), '--host', host, ...(options.args ?? [])],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe', ...(options.ipc ? (['ipc'] as const) : [])],
    },
  );
  // Until it listens, what it prints on stderr is kept for the error that says why it stopped (the bin's one
  // line); once it listens, it goes where `stderr` says.
  let errors = '';
  let listening = false;
  child.stderr!.on('data', (chunk: Buffer) => {
    if (!listening) errors += chunk.toString();
    else if ((options.stderr ?? 'inherit') === 'inherit') process.stderr.write(chunk);
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 0)));
  const url = `http://${host}:${options.port}`;
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!listening && out.includes(`${url}/v1`)) {
        listening = true;
        resolve({
          child,
          url,
          baseUrl: `${url}/v1`,
          simulationUrl: `${url}/sandbox`,
          exited,
          async stop(graceMs = 5_000) {
            if (child.exitCode !== null || child.signalCode !== null) return;
            child.kill('SIGTERM');
            const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
            await exited;
            clearTimeout(timer);
          },
        });
      }
    });
    void exited.then((code) => {
      const why = errors.trim().split('\n').at(-1);
      reject(new Error(`the sandbox exited (${code}) before listening on ${url}${why ? `: ${why}` : ''}`));
    });
  });
}
