/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!; // 0 <= rank < sorted.length, which is not 0
}

export function summary(samples: readonly number[]): { median: number; p95: number; max: number } {
  return { median: percentile(samples, 50), p95: percentile(samples, 95), max: samples.length ? Math.max(...samples) : Number.NaN };
}

export function fmt(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return '—';
  return value.toFixed(digits);
}

export function fmtInt(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';
}

/** A plain-text table: first row is the header, columns padded, numbers right-aligned. */
export function table(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const [header, ...body] = rows.map((row) => row.map(String));
  if (!header) return '';
  const widths = header.map((_, column) => Math.max(...[header, ...body].map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return column === 0 || !/^[-\d.,×%—–/<]+$/.test(cell) ? cell.padEnd(width) : cell.padStart(width);
      })
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
