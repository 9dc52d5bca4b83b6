// A run stopped from outside (Ctrl-C's SIGINT, or SIGTERM) still tidies up after itself, as one that ends:
// the clean-up runs once (endpoints and beneficiaries removed, balances and settings set back) and says what
// it left, then the process exits with 130 (SIGINT) or 143 (SIGTERM). Meanwhile the run's own work stops
// where it stands: its next request (`checkpoint()` before each one) waits for ever instead of being sent, so
// that no record is made behind the clean-up's back, and its child processes (Dredd, Respect) are ended. A
// second signal during the clean-up exits at once.
import type { ChildProcess } from 'node:child_process';

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type Signal = keyof typeof EXIT_CODES;

let stopping = false;
const children = new Set<ChildProcess>();

/** True once a signal has stopped the run. */
export const interrupted = (): boolean => stopping;

/** Resolves at once, or never once the run is stopped: awaited before each request and each part of the run. */
export const checkpoint = (): Promise<void> => (stopping ? new Promise<void>(() => undefined) : Promise.resolve());

/** A child process of the run, ended if the run is stopped. */
export function trackChild(child: ChildProcess): void {
  children.add(child);
  child.on('exit', () => children.delete(child));
}

/**
 * On SIGINT or SIGTERM: stops the run, runs `tidy` (once, whatever else calls it) and prints its lines, then
 * exits. Returns the function that removes the handlers (when the run ends by itself).
 */
export function onInterrupt(tidy: () => Promise<string[]>, print: (line: string) => void = console.log): () => void {
  const handle = (signal: Signal) => {
    if (stopping) {
      print(`\n${signal} again: the clean-up was abandoned; what it had not removed is left.`);
      process.exit(EXIT_CODES[signal]);
    }
    stopping = true;
    print(`\nInterrupted (${signal}): the run stops here and cleans up after itself ...`);
    for (const child of children) child.kill('SIGTERM');
    void tidy()
      .catch((error: Error) => [`clean-up failed: ${error.message}`])
      .then((lines) => {
        for (const line of lines) print(line);
        print(`Interrupted (${signal}): the run did not finish; no result is reported.`);
        process.exit(EXIT_CODES[signal]);
      });
  };
  const onSigint = () => handle('SIGINT');
  const onSigterm = () => handle('SIGTERM');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  return () => {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
  };
}
