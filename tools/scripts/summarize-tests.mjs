// Sums the vitest JSON reports of every project into the closing line CI reads:
// "N passed, N failed, N skipped". Lists every failed test with the first line of its error just above it,
// so a CI log that keeps only its head and tail still says what failed. Exits 1 when anything failed or a
// suite could not run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = process.argv[2] ?? 'reports/vitest';
const expected = (process.argv[3] ?? '').split(',').filter(Boolean);
let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];
const firstLine = (text) =>
  (text ?? '')
    .replace(/\x1b\[[0-9;]*m/g, '')
    .trim()
    .split('\n')[0]
    .slice(0, 300);
const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
for (const file of files) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const project = file.replace(/\.json$/, '');
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  for (const suite of report.testResults ?? []) {
    const where = relative(process.cwd(), suite.name);
    const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) problems.push(`FAILED ${project}: ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (suite.status === 'failed' && failedTests.length === 0) {
      failed += 1;
      problems.push(`FAILED ${project}: ${where} could not run: ${firstLine(suite.message) || '(no message: a hook failed or timed out; see the log above)'}`);
    }
  }
  // A project may have no fault or unit-tier tests (all its tests need servers); every project has some in the full run.
  if (report.numTotalTests === 0 && !/-(faults|unit)$/.test(project)) {
    failed += 1;
    problems.push(`FAILED ${project}: no tests ran`);
  }
  console.log(`  ${project}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`);
}
for (const project of expected) {
  if (!files.includes(`${project}.json`)) {
    failed += 1;
    problems.push(`FAILED ${project}: no test report (its test run crashed or did not start)`);
  }
}
for (const problem of problems) console.log(`  ${problem}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
