// Summarises the CI's test runs as its last lines: each failure by name, then `N passed, N failed`.
// Arguments: vitest JSON reports (--reporter=json --outputFile.json=<file>), and single checks written as
// `check:<name>=<exit code>` (the typecheck, the conformance runs against the mock and the sandbox), each counting as one test.
// A missing report, or a test file that failed before running its tests (an import or setup error), counts as
// one failure. Failures go to stdout, just above the count, so a log cut to its tail still names them.
// Exits 1 when anything failed.
import fs from 'node:fs';
import path from 'node:path';

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { status: string; fullName: string; failureMessages?: string[] }[];
  }[];
}

const firstLine = (text: string | undefined) => (text ?? '').split('\n', 1)[0]!.slice(0, 300);

let passed = 0;
const failures: string[] = [];
for (const arg of process.argv.slice(2)) {
  const check = /^check:([\w:-]+)=(\d+)$/.exec(arg);
  if (check) {
    if (check[2] === '0') passed += 1;
    else failures.push(`check ${check[1]}: exit code ${check[2]}`);
    continue;
  }
  if (!fs.existsSync(arg)) {
    failures.push(`no test report at ${arg}: that vitest run did not finish`);
    continue;
  }
  const report = JSON.parse(fs.readFileSync(arg, 'utf8')) as Report;
  passed += report.numPassedTests;
  for (const file of report.testResults) {
    const where = path.relative(process.cwd(), file.name);
    const failedTests = file.assertionResults.filter((a) => a.status === 'failed');
    if (file.status === 'failed' && failedTests.length === 0) {
      failures.push(`${where}: the file failed to run: ${firstLine(file.message)}`);
    }
    for (const test of failedTests) failures.push(`${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
  }
}
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length > 0 ? 1 : 0);
