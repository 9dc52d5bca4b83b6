// Summarises the CI's test runs as its last line: `N passed, N failed`.
// Arguments: vitest JSON reports (--reporter=json --outputFile.json=<file>), and single checks written as
// `check:<name>=<exit code>` (the typecheck, the conformance runs against the mock and the sandbox), each counting as one test.
// A missing report, or a test file that failed before running its tests (an import or setup error), counts as
// one failure. Exits 1 when anything failed.
import fs from 'node:fs';

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; status: string; message?: string; assertionResults: { status: string }[] }[];
}

let passed = 0;
let failed = 0;
for (const arg of process.argv.slice(2)) {
  const check = /^check:([\w:-]+)=(\d+)$/.exec(arg);
  if (check) {
    if (check[2] === '0') passed += 1;
    else {
      failed += 1;
      console.error(`Check failed: ${check[1]} (exit code ${check[2]})`);
    }
    continue;
  }
  if (!fs.existsSync(arg)) {
    console.error(`No test report at ${arg}: that vitest run did not finish.`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(arg, 'utf8')) as Report;
  const brokenFiles = report.testResults.filter(
    (r) => r.status === 'failed' && !r.assertionResults.some((a) => a.status === 'failed'),
  );
  for (const r of brokenFiles) console.error(`Test file failed to run: ${r.name}${r.message ? `: ${r.message.split('\n')[0]}` : ''}`);
  passed += report.numPassedTests;
  failed += report.numFailedTests + brokenFiles.length;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
