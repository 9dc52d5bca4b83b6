// One timer for all the timeouts of a client: deadlines fire in order, a finished call never fires, and an
// idle client's timer does not keep the process alive.
import { describe, expect, it } from 'vitest';
import { Deadlines } from '../../src/client/deadlines.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const refTimeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('Deadlines', () => {
  it('fires each running call once, in order, after its own ms; never a cleared one', async () => {
    const deadlines = new Deadlines(60);
    const fired: string[] = [];
    const started = performance.now();
    const at: Record<string, number> = {};
    const mark = (name: string) => () => {
      fired.push(name);
      at[name] = performance.now() - started;
    };
    deadlines.add(mark('a'));
    await sleep(30);
    const b = deadlines.add(mark('b'));
    const c = deadlines.add(mark('c'));
    c.clear();
    c.clear(); // twice is harmless
    await sleep(150);
    expect(fired).toEqual(['a', 'b']);
    expect(at.a).toBeGreaterThanOrEqual(59);
    expect(at.b).toBeGreaterThanOrEqual(89);
    b.clear(); // after it fired: harmless
  });

  it('keeps no timer alive while no call is running, and works again after', async () => {
    const before = refTimeouts();
    const deadlines = new Deadlines(10_000);
    const running = deadlines.add(() => {
      throw new Error('must not fire');
    });
    expect(refTimeouts()).toBe(before + 1);
    running.clear();
    expect(refTimeouts()).toBe(before);
    const fired: number[] = [];
    const short = new Deadlines(20);
    short.add(() => fired.push(1)).clear();
    short.add(() => fired.push(2));
    await sleep(80);
    expect(fired).toEqual([2]);
  });
});
