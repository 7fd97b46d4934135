// The summary line `npm test` and .ci/run end with, counted from vitest's JSON report.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { failedFilesWithoutFailedTests, failedTests, failureLines, readReport, summaryLine } from './lib/summary.ts';

describe('summaryLine', () => {
  it('counts passed, failed, and skipped (pending + todo) tests', () => {
    expect(summaryLine({ numPassedTests: 41, numFailedTests: 2, numPendingTests: 3, numTodoTests: 1, numTotalTests: 47 })).toBe(
      'tests: 41 passed, 2 failed, 4 skipped',
    );
  });

  it('makes a run that executed nothing visible as zeros', () => {
    expect(summaryLine({ numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 })).toBe(
      'tests: 0 passed, 0 failed, 0 skipped',
    );
    expect(summaryLine(undefined)).toBe('tests: 0 passed, 0 failed, 0 skipped');
  });

  it('reads a real vitest JSON report from disk', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pa-report-'));
    try {
      const file = path.join(dir, 'report.json');
      writeFileSync(file, JSON.stringify({ numPassedTests: 5, numFailedTests: 0, numPendingTests: 1, numTodoTests: 0, testResults: [] }));
      expect(summaryLine(readReport(file))).toBe('tests: 5 passed, 0 failed, 1 skipped');
      expect(readReport(path.join(dir, 'missing.json'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('failedFilesWithoutFailedTests', () => {
  it('lists files that failed before any test could fail (import errors)', () => {
    const report = {
      testResults: [
        { name: '/r/a.test.ts', status: 'failed', message: 'Cannot find module x\n  at …', assertionResults: [] },
        { name: '/r/b.test.ts', status: 'failed', message: '', assertionResults: [{ status: 'failed' }] },
        { name: '/r/c.test.ts', status: 'passed', message: '', assertionResults: [{ status: 'passed' }] },
      ],
    };
    expect(failedFilesWithoutFailedTests(report)).toEqual([{ file: '/r/a.test.ts', message: 'Cannot find module x' }]);
  });
});

describe('failedTests', () => {
  it('names each failed test with the first lines of its failure', () => {
    const report = {
      testResults: [
        {
          name: '/r/e2e/claim.test.ts',
          status: 'failed',
          assertionResults: [
            { status: 'passed', fullName: 'ok' },
            { status: 'failed', fullName: 'claim > pays', failureMessages: ['Error: no button\n  at a\n  at b\n  at c'] },
          ],
        },
      ],
    };
    expect(failedTests(report, 2)).toEqual([{ file: '/r/e2e/claim.test.ts', test: 'claim > pays', failure: 'Error: no button\n  at a' }]);
    expect(failedTests(undefined)).toEqual([]);
  });
});

describe('failureLines', () => {
  it('prints files that failed before a test ran, then each failed test, relative to the root', () => {
    const report = {
      testResults: [
        { name: '/r/a.test.ts', status: 'failed', message: 'Cannot find module x', assertionResults: [] },
        { name: '/r/b.test.ts', status: 'failed', assertionResults: [{ status: 'failed', fullName: 'b > c', failureMessages: ['boom'] }] },
      ],
    };
    expect(failureLines(report, '/r')).toEqual([
      'failed file (no test ran): a.test.ts: Cannot find module x',
      'failed: b.test.ts > b > c\n    boom',
    ]);
  });
});
