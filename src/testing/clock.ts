// The clock of your key's account in the sandbox, for your tests: read it, move it forward (which runs every timer
// of the account that falls due on the way: automatic outcomes, webhook retries, expiries), freeze it, let it
// follow real time again. Each account has its own clock, so test files with keys of their own that share a
// sandbox never move each other's time (on a sandbox started with `clock: 'shared'`, every key moves one). A thin layer
// over the simulation client's data-or-throw `call` (`/sandbox/clock...` of spec/sandbox.yaml): an error answer
// throws its PartnerApiError.
import { createSimulationClient, type SimulationClientOptions, type SimulationPaths } from '../sandbox/client.js';

/** The account's clock as `GET /sandbox/clock` gives it: its time, whether it is frozen, the account's timers waiting. */
export type ClockState = SimulationPaths['/clock']['get']['responses'][200]['content']['application/json']['data'];

export interface SandboxClock {
  /** The clock's state: `now` (ISO 8601), `frozen`, `pending_jobs`. */
  read(): Promise<ClockState>;
  /** Moves the clock forward by `seconds`, or to a time (`Date` or ISO 8601), running what falls due. */
  advance(by: number | { to: Date | string }): Promise<ClockState>;
  /** Stops the clock: it then moves only when advanced. */
  freeze(): Promise<ClockState>;
  /** Lets the clock follow real time again, from where it is. */
  resume(): Promise<ClockState>;
}

/**
 * The clock of the account of `options.apiKey` in the sandbox at `options.baseUrl` (its simulation API,
 * `sandbox.simulationUrl`, or `http://HOST:PORT/sandbox` for a sandbox in another process).
 */
export function createSandboxClock(options: SimulationClientOptions): SandboxClock {
  const sim = createSimulationClient(options);
  return {
    read: async () => (await sim.call.GET('/clock')).data,
    advance: async (by) =>
      (
        await sim.call.POST('/clock/advance', {
          body: typeof by === 'number' ? { seconds: by } : { to: by.to instanceof Date ? by.to.toISOString() : by.to },
        })
      ).data,
    freeze: async () => (await sim.call.POST('/clock/freeze')).data,
    resume: async () => (await sim.call.POST('/clock/resume')).data,
  };
}
