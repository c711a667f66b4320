// Sums the vitest JSON reports of every project into the closing line CI reads:
// "N passed, N failed, N skipped". Exits 1 when anything failed or a suite could not run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'reports/vitest';
const expected = (process.argv[3] ?? '').split(',').filter(Boolean);
let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];
const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
for (const file of files) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const project = file.replace(/\.json$/, '');
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  for (const suite of report.testResults ?? []) {
    if (suite.status === 'failed' && (suite.assertionResults ?? []).every((test) => test.status !== 'failed')) {
      failed += 1;
      problems.push(`${project}: ${suite.name} could not run: ${(suite.message ?? '').split('\n')[0]}`);
    }
  }
  if (report.numTotalTests === 0 && !project.endsWith('-faults')) {
    failed += 1;
    problems.push(`${project}: no tests ran`);
  }
  console.log(`  ${project}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`);
}
for (const project of expected) {
  if (!files.includes(`${project}.json`)) {
    failed += 1;
    problems.push(`${project}: no test report (its test run crashed or did not start)`);
  }
}
for (const problem of problems) console.log(`  ${problem}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
