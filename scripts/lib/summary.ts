// The plain summary line printed at the end of `npm test` and `.ci/run`, counted from vitest's JSON report.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The parts of vitest's JSON report read here; a report from a crashed run may lack any of them. */
export interface VitestReport {
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
  numTotalTests?: number;
  testResults?: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults?: Array<{ status: string; fullName?: string; title?: string; failureMessages?: string[] }>;
  }>;
}

/** `tests: N passed, N failed, N skipped` */
export function summaryLine(report: VitestReport | null | undefined): string {
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const passed = n(report?.numPassedTests);
  const failed = n(report?.numFailedTests);
  const skipped = n(report?.numPendingTests) + n(report?.numTodoTests);
  return `tests: ${passed} passed, ${failed} failed, ${skipped} skipped`;
}

/** Test files that failed without a failing test (import errors, crashed hooks): invisible in the counts above. */
export function failedFilesWithoutFailedTests(report: VitestReport | null | undefined): Array<{ file: string; message: string }> {
  const files = Array.isArray(report?.testResults) ? report.testResults : [];
  return files
    .filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'))
    .map((f) => ({ file: f.name, message: (f.message ?? '').split('\n')[0] ?? '' }));
}

/**
 * Every failed test with the first lines of its failure, so the end of a long CI log (often all that is kept) names
 * what failed and why, not just how many.
 */
export function failedTests(report: VitestReport | null | undefined, maxLines = 6): Array<{ file: string; test: string; failure: string }> {
  const files = Array.isArray(report?.testResults) ? report.testResults : [];
  return files.flatMap((f) =>
    (f.assertionResults ?? [])
      .filter((a) => a.status === 'failed')
      .map((a) => ({
        file: f.name,
        test: a.fullName ?? a.title ?? '',
        failure: (a.failureMessages ?? []).join('\n').split('\n').slice(0, maxLines).join('\n'),
      })),
  );
}

/** The lines naming what failed (files that failed before a test ran, then each failed test), paths relative to root. */
export function failureLines(report: VitestReport | null | undefined, root: string): string[] {
  const rel = (file: string) => (file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file);
  return [
    ...failedFilesWithoutFailedTests(report).map(
      ({ file, message }) => `failed file (no test ran): ${rel(file)}${message ? `: ${message}` : ''}`,
    ),
    ...failedTests(report).map(({ file, test, failure }) => `failed: ${rel(file)} > ${test}\n${failure.replace(/^/gm, '    ')}`),
  ];
}

/** Reads the report; undefined when missing or unreadable. */
export function readReport(file: string): VitestReport | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as VitestReport;
  } catch {
    return undefined;
  }
}

// `node --import tsx scripts/lib/summary.ts .data/test-report.json` prints the line (used by .ci/run).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2] ?? '.data/test-report.json';
  const report = readReport(file);
  if (!report) {
    console.log(`tests: no report at ${file} (the test run did not finish)`);
    process.exit(1);
  }
  for (const line of failureLines(report, process.cwd())) console.log(line);
  console.log(summaryLine(report));
}
