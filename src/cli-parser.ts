// The command line of every tool and of the sandbox's bin: Node's util.parseArgs (strict), one-line errors,
// "did you mean" for a mistyped option, the usage, exit 2. The scripts import this file under plain Node
// (type stripping, which does not map `./x.js` to `./x.ts`), so it imports nothing of its own.
//
//   const args = parseCli(argv, { usage, options: { port: { type: 'string' } }, required: ['port'] });
//   if (!args) return 0;                       // --help printed the usage
//
//   runCli('mock', USAGE, main);               // UsageError → "mock: <line>" + usage, exit 2;
//                                              // any other error → "mock: <message>", no stack, exit 1
import { parseArgs } from 'node:util';

/** A mistake on the command line: reported in one line with the usage, exit 2. */
export class UsageError extends Error {}

/** An expected failure reported in one line without the usage (a server that cannot be reached...). */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  default?: string | boolean | string[] | boolean[];
}
type Options = Record<string, OptionSpec>;
type Value<S extends OptionSpec> = S['type'] extends 'string'
  ? S['multiple'] extends true
    ? string[]
    : string
  : S['multiple'] extends true
    ? boolean[]
    : boolean;
export type Values<O extends Options> = { [K in keyof O]?: Value<O[K]> };

export interface CliSpec<O extends Options> {
  usage: string;
  options: O;
  /** Options that must be given (a `multiple` one at least once). */
  required?: (keyof O & string)[];
  /** Positional arguments: how many, and what to call them in an error (default: none allowed). */
  positionals?: { min?: number; max?: number; name?: string };
}

/** Levenshtein distance, for "did you mean". */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/** The known names closest to `name` (at most 2 edits, or a prefix of it). */
export function closest(name: string, known: readonly string[]): string[] {
  return known.filter((k) => editDistance(k, name) <= 2 || (name.length >= 3 && k.startsWith(name)));
}

/**
 * Why a server could not listen on `port`, in one line ending with `hint` ("pass --port <port> to use another
 * one"); undefined for an error that is not about the port.
 */
export function portProblem(error: unknown, host: string, port: number, hint: string): string | undefined {
  const code = (error as { code?: string } | null)?.code;
  const why = code === 'EADDRINUSE' ? 'is already in use' : code === 'EACCES' ? 'needs privileges to be bound' : undefined;
  return why === undefined ? undefined : `port ${port} on ${host} ${why}; ${hint}`;
}

const flags = (names: string[]) => names.map((n) => `--${n}`).join(', ');

/** Rewrites a parseArgs error (long, with a hint about `--`) as one short line naming the argument. */
function usageLine(error: { code?: string; message: string }, options: Options): string {
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? '';
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const name = quoted.replace(/^-+/, '');
    const near = closest(name, Object.keys(options));
    return `unknown option ${quoted}${near.length ? ` (did you mean ${flags(near)}?)` : ''}`;
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = /--([\w-]+)/.exec(error.message)?.[1] ?? quoted;
    return options[name]?.type === 'boolean' ? `--${name} takes no value` : `--${name} needs a value`;
  }
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${quoted}`;
  return error.message.split('\n')[0]!;
}

/**
 * Parses `argv` strictly against `spec.options` (plus `--help`/`-h`). Returns null after printing the usage
 * for --help; throws UsageError naming the unknown option, the missing value or argument.
 */
export function parseCli<O extends Options>(argv: string[], spec: CliSpec<O>): { values: Values<O>; positionals: string[] } | null {
  const { min = 0, max = 0, name = 'argument' } = spec.positionals ?? {};
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(usageLine(error as { code?: string; message: string }, spec.options));
  }
  if (parsed.values['help']) {
    console.log(spec.usage);
    return null;
  }
  const { positionals } = parsed;
  if (positionals.length > max) {
    const extra = positionals.slice(max).join(' ');
    throw new UsageError(max === 0 ? `unexpected argument ${extra}` : `too many arguments: ${extra} (at most ${max} ${name})`);
  }
  if (positionals.length < min) throw new UsageError(`missing ${name}`);
  const missing = (spec.required ?? []).filter((k) => parsed.values[k] === undefined);
  if (missing.length) throw new UsageError(`missing ${missing.map((k) => `--${k}`).join(' and ')}`);
  return { values: parsed.values as Values<O>, positionals };
}

/** Reports an error of a tool in one line: `<tool>: <message>`, plus the usage for a UsageError. Returns the exit code. */
export function reportCliError(tool: string, usage: string, error: unknown): number {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`${tool}: ${message}`);
  if (error instanceof UsageError) {
    console.error(usage);
    return 2;
  }
  return error instanceof CliError ? error.exitCode : 1;
}

/** Runs a tool's main, sets the exit code it returns, and reports a thrown error in one line (no stack). */
export async function runCli(tool: string, usage: string, main: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await main();
  } catch (error) {
    // exitCode, not exit(): exit() would cut the output short when stdout is a pipe.
    process.exitCode = reportCliError(tool, usage, error);
  }
}
