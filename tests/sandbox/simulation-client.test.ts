// The simulation client of the package (`createSimulationClient`, from ./sandbox and ./testing) against an
// in-process sandbox: its data-or-throw `call` throws the partner client's error types, its openapi-fetch methods
// never throw, and the partner API's address given in place of the simulation API's is named in the error, with
// `simulationUrl`, instead of a bare "No operation at PATCH /v1/account.".
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { isPartnerApiError, PartnerApiError } from '../../src/client/index.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { createSandboxClock, createSimulationClient, type SimulationClient } from '../../src/testing/index.ts';

const KEY = 'sk_test_simulation_client';
let sandbox: RunningSandbox;
let sim: SimulationClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, freezeClock: true, rateLimit: false });
  sim = createSimulationClient({ apiKey: KEY, baseUrl: sandbox.simulationUrl });
});
afterAll(() => sandbox?.close());

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(Error);
  return outcome.error as Error;
}

describe('sim.call: data or throw', () => {
  it('resolves to the typed success body', async () => {
    const account = await sim.call.PATCH('/account', { body: { manual: true } });
    expectTypeOf(account.data.manual).toEqualTypeOf<boolean>();
    expect(account).toMatchObject({ success: true, data: { manual: true, mode: 'test' } });
    const clock = await sim.call.GET('/clock');
    expect(clock.data.frozen).toBe(true);
  });

  it('throws PartnerApiError for an error answer: status, code, method and path template, the API message verbatim', async () => {
    const customerCode = '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f';
    const error = await rejection(
      sim.call.POST('/kyc/{customerCode}/outcome', { params: { path: { customerCode } }, body: { outcome: 'approved' } }),
    );
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(isPartnerApiError(error)).toBe(true);
    const api = error as PartnerApiError;
    expect({ status: api.status, code: api.code, method: api.method, path: api.path }).toEqual({
      status: 404,
      code: 'RESOURCE_NOT_FOUND',
      method: 'POST',
      path: '/kyc/{customerCode}/outcome',
    });
    expect(api.requestId).toMatch(/\S/);
    expect(api.message).not.toContain('simulationUrl');
  });

  it('is typed by the simulation API: a partner API path is refused', () => {
    // @ts-expect-error GET /cards is an operation of the partner API, not of the simulation API
    const wrong = () => sim.call.GET('/cards');
    void wrong;
  });

  it('leaves the openapi-fetch methods as they are: { data, error, response }, never a throw', async () => {
    const result = await sim.POST('/kyc/{customerCode}/outcome', {
      params: { path: { customerCode: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f' } },
      body: { outcome: 'approved' },
    });
    expect(result.data).toBeUndefined();
    expect(result.response.status).toBe(404);
    expect(result.error?.error.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe("the partner API's address given as the simulation client's baseUrl", () => {
  it('a 404 names simulationUrl and the address to use', async () => {
    const wrong = createSimulationClient({ apiKey: KEY, baseUrl: sandbox.baseUrl });
    const error = await rejection(wrong.call.PATCH('/account', { body: { manual: true } }));
    expect(error).toBeInstanceOf(PartnerApiError);
    expect((error as PartnerApiError).status).toBe(404);
    expect(error.message).toMatch(/^No operation at PATCH \/v1\/account\./);
    expect(error.message).toContain('simulationUrl');
    expect(error.message).toContain(`${sandbox.baseUrl} is the partner API's address`);
    expect(error.message).toContain(sandbox.simulationUrl);
    expect(error.message).not.toContain('\n');
  });

  it('the gift card address too, and the clock, which calls through sim.call', async () => {
    const giftCards = createSimulationClient({ apiKey: KEY, baseUrl: `${sandbox.giftCardBaseUrl}/` });
    expect((await rejection(giftCards.call.GET('/clock'))).message).toContain('simulationUrl');
    const clock = createSandboxClock({ apiKey: KEY, baseUrl: sandbox.baseUrl });
    expect((await rejection(clock.advance(2))).message).toContain('simulationUrl');
    expect((await createSandboxClock({ apiKey: KEY, baseUrl: sandbox.simulationUrl }).read()).frozen).toBe(true);
  });
});
