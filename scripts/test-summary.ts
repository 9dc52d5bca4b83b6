// Summarises a vitest JSON report (--reporter=json --outputFile.json=<file>) as the CI's last line:
// `N passed, N failed`. Exits 1 when anything failed or the report is missing.
// A test file that failed before running its tests (an import or setup error) counts as one failure.
import fs from 'node:fs';

interface Report {
  success: boolean;
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; status: string; message?: string; assertionResults: { status: string }[] }[];
}

const file = process.argv[2];
if (!file || !fs.existsSync(file)) {
  console.error(`No test report at ${file ?? '(no file given)'}: vitest did not finish.`);
  console.log('0 passed, 0 failed');
  process.exit(1);
}
const report = JSON.parse(fs.readFileSync(file, 'utf8')) as Report;
const brokenFiles = report.testResults.filter(
  (r) => r.status === 'failed' && !r.assertionResults.some((a) => a.status === 'failed'),
);
for (const r of brokenFiles) console.error(`Test file failed to run: ${r.name}${r.message ? `: ${r.message.split('\n')[0]}` : ''}`);
const passed = report.numPassedTests;
const failed = report.numFailedTests + brokenFiles.length;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || !report.success ? 1 : 0);
