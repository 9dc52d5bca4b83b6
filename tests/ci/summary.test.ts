// The CI's last lines (scripts/ci/summary.ts): the count over every report and check, and each failure named
// above it, so a log cut to its tail still says what failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/ci/summary.ts');

function summarise(args: string[], cwd: string) {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: 'utf8' });
  return { code: run.status, lines: run.stdout.trim().split('\n') };
}

function report(dir: string, name: string, testResults: unknown[]) {
  const tests = testResults.flatMap((f) => (f as { assertionResults: { status: string }[] }).assertionResults);
  const file = path.join(dir, `${name}.json`);
  const count = (status: string) => tests.filter((t) => t.status === status).length;
  fs.writeFileSync(file, JSON.stringify({ numPassedTests: count('passed'), numFailedTests: count('failed'), testResults }));
  return file;
}

describe('the CI summary', () => {
  it('counts passing reports and checks, and exits 0', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'summary-'));
    const unit = report(dir, 'unit', [
      {
        name: path.join(dir, 'a.test.ts'),
        status: 'passed',
        assertionResults: [
          { status: 'passed', fullName: 'a works' },
          { status: 'passed', fullName: 'a still works' },
        ],
      },
    ]);
    expect(summarise([unit, 'check:lint=0'], dir)).toEqual({ code: 0, lines: ['3 passed, 0 failed'] });
  });

  it('names each failed test, file that did not run, failed check and missing report above the count', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'summary-'));
    const unit = report(dir, 'unit', [
      {
        name: path.join(dir, 'tests/a.test.ts'),
        status: 'failed',
        assertionResults: [
          { status: 'passed', fullName: 'a works' },
          { status: 'failed', fullName: 'a > rounds down', failureMessages: ['AssertionError: expected 1 to be 2\n    at a.test.ts:3'] },
        ],
      },
      { name: path.join(dir, 'tests/b.test.ts'), status: 'failed', message: 'Cannot find module x\nstack', assertionResults: [] },
    ]);
    const { code, lines } = summarise([unit, path.join(dir, 'missing.json'), 'check:typecheck=2', 'check:lint=0'], dir);
    expect(code).toBe(1);
    expect(lines).toEqual([
      'FAILED tests/a.test.ts > a > rounds down: AssertionError: expected 1 to be 2',
      'FAILED tests/b.test.ts: the file failed to run: Cannot find module x',
      `FAILED no test report at ${path.join(dir, 'missing.json')}: that vitest run did not finish`,
      'FAILED check typecheck: exit code 2',
      '2 passed, 4 failed',
    ]);
  });
});
