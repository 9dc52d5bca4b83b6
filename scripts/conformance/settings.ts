// The account settings a run changes through the simulation API, set back afterwards. The workflows put the
// account on another plan and make its outcomes wait to be chosen (`PATCH /account` of spec/sandbox.yaml); on a
// server that keeps its state, the next run would find its cards pending. The simulation API has no read of the
// settings, but every `PATCH /account` answers with them all: the suite sends one that changes nothing (its own
// key is not revoked, or it could not run), and after the run sends back whatever differs. An account whose
// outcomes wait to be chosen (an earlier run's workflows left it so) is made automatic for the run: the set-up
// waits for its card to be issued.
import { bodyText, dataOf } from './http.ts';
import { simulate } from './simulation.ts';
import type { ConformanceConfig } from './types.ts';

/** The settings a run may change and sets back (every field of the answer but the key's revocation). */
const RESTORED = ['plan', 'manual', 'products', 'rate_limit', 'allowed_ips'] as const;

export type Settings = Partial<Record<(typeof RESTORED)[number], unknown>>;

async function patchAccount(config: ConformanceConfig, body: Record<string, unknown>): Promise<Settings | string> {
  try {
    const answer = await simulate(config, 'PATCH', '/account', body);
    const data = dataOf(answer);
    if (answer.status !== 200 || typeof data !== 'object' || data === null)
      return `PATCH ${config.simulationUrl}/account answered ${answer.status}: ${bodyText(answer.body, 300)}`;
    return Object.fromEntries(RESTORED.filter((k) => k in data).map((k) => [k, (data as Record<string, unknown>)[k]]));
  } catch (error) {
    return `PATCH ${config.simulationUrl}/account: ${(error as Error).message}`;
  }
}

/** The account's settings before the run, through the simulation API (undefined without one, or the reason it failed). */
export async function readSettings(config: ConformanceConfig): Promise<Settings | string | undefined> {
  if (!config.simulationUrl) return undefined;
  return patchAccount(config, { revoked: false });
}

/** Sets back the settings that differ from `before`; the report's lines. */
export async function restoreSettings(config: ConformanceConfig, before: Settings): Promise<{ lines: string[]; problems: string[] }> {
  const now = await readSettings(config);
  if (typeof now !== 'object')
    return { lines: [], problems: [`the account's settings could not be read to set them back: ${now ?? 'no simulation API'}`] };
  const changed = Object.fromEntries(
    RESTORED.filter((k) => k in before && JSON.stringify(now[k]) !== JSON.stringify(before[k])).map((k) => [k, before[k]]),
  );
  if (Object.keys(changed).length === 0) return { lines: [], problems: [] };
  const result = await patchAccount(config, changed);
  const what = Object.entries(changed)
    .map(([k, v]) => `${k} ${JSON.stringify(now[k as keyof Settings])} -> ${JSON.stringify(v)}`)
    .join(', ');
  return typeof result === 'string'
    ? { lines: [], problems: [`the account's ${what}: ${result}`] }
    : { lines: [`  account settings set back: ${what}`], problems: [] };
}

/** Lets the server decide asynchronous outcomes by itself for the run; the reason when it could not. */
export async function automaticOutcomes(config: ConformanceConfig): Promise<string | undefined> {
  const result = await patchAccount(config, { manual: false });
  return typeof result === 'string'
    ? `account settings: outcomes wait to be chosen, and could not be made automatic: ${result}`
    : undefined;
}
