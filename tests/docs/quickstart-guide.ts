// docs/quickstart.md as its two tests run it: tests/docs/quickstart.test.ts (in `npm test`: a project where this
// repository's src/ stands in for the package) and the journey tests/journeys/quickstart.test.ts (an empty folder
// where the package is installed from its tarball, as the guide says). Both run the same steps on free ports, and
// a probe right after the guide's stop block.
import { findFreePort } from '../../scripts/lib/port-check.ts';
import { extractSteps, installSteps, substitute, type RunResult, type Step } from './guide-runner.ts';

export interface QuickstartPorts {
  sandbox: number;
  receiver: number;
}

/** Two different free ports, for the guide's SANDBOX_PORT and RECEIVER_PORT (4020 and 4021 may be taken). */
export async function freePorts(): Promise<QuickstartPorts> {
  const sandbox = await findFreePort();
  let receiver = await findFreePort();
  while (receiver === sandbox) receiver = await findFreePort();
  return { sandbox, receiver };
}

export const PROBE = '# probe: after the guide';

/** A block run after the guide's last one: it prints each of the ports that still accepts a connection. */
function probe(ports: QuickstartPorts): Step {
  const code = `${PROBE}\nfor port in ${ports.sandbox} ${ports.receiver}; do if (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then echo "port $port still listening"; fi; done`;
  return { kind: 'commands', code, line: 0 };
}

/**
 * The guide's steps: the install blocks of `install` (none when the test installs the package by itself), the
 * ports and the other `values` substituted (each a variable the guide assigns once), then the probe.
 */
export function quickstartSteps(
  markdown: string,
  options: { install: string | undefined; ports: QuickstartPorts; values?: Record<string, string> },
): Step[] {
  const steps = substitute(installSteps(extractSteps(markdown), options.install), {
    SANDBOX_PORT: String(options.ports.sandbox),
    RECEIVER_PORT: String(options.ports.receiver),
    ...options.values,
  });
  return [...steps, probe(options.ports)];
}

/** What the block whose code contains `text` printed on stdout; undefined when no such block ran. */
export function printed(run: RunResult, text: string): string | undefined {
  return run.results.find((r) => r.step.kind === 'commands' && r.step.code.includes(text))?.stdout;
}
