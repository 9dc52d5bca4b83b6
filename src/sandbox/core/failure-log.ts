// The sandbox's record of its own failures: a request answered 500 INTERNAL_ERROR by an error no rule expected,
// and a job that threw. The server runs without a logger (a partner's test output stays clean), so without
// this line such an error would exist only in the one response, or nowhere for a job. One line each on stderr,
// whatever the logger: `partner-api-sandbox: 500 req_… POST /v1/…: RangeError: … (at file:line:column)`.
// Designed failures (a fault armed through the simulation API, a provider's 502) are answers, not failures:
// they are not logged.
import { TOOL } from '../sandbox-flags.js';

/** Control characters (a message may quote what a request sent) become spaces: one line, whatever the error. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it replaces
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();

/** `Name: message (at the first frame of its stack)`, on one line. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return oneLine(`thrown ${typeof error}: ${String(error)}`);
  const frame = error.stack
    ?.split('\n')
    .find((line) => line.trimStart().startsWith('at '))
    ?.trim()
    .replace(/^at /, '');
  return oneLine(`${error.name}: ${error.message}${frame ? ` (at ${frame})` : ''}`);
}

/** Writes one line on stderr: what failed (`500 req_… POST /v1/…`, `job card.issue`) and the error. */
export function logFailure(what: string, error: unknown): void {
  process.stderr.write(`${TOOL}: ${oneLine(what)}: ${describeFailure(error)}\n`);
}
