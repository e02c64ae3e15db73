import type { BenchRow } from './types.js';

/**
 * BENCHMARKS.md: a header that says where and how the figures were taken (ratios only compare
 * within one run on one machine), then one markdown table, one line per row of every case.
 */

export interface RunDescription {
  cpuModel: string;
  cores: number;
  totalMemoryBytes: number;
  nodeVersion: string;
  startedAt: Date;
  totalSeconds: number;
  command: string;
  /** Each case's wall time, in run order. */
  caseSeconds: readonly { name: string; seconds: number }[];
}

const columns = ['Benchmark', 'Figure', 'Baseline', 'Ratio', 'Goal', 'Met', 'Notes'] as const;

/** A table cell: one line, and a `|` cannot end the cell early. */
function cell(text: string): string {
  return text
    .replace(/\s*\r?\n\s*/g, ' ')
    .replaceAll('|', '\\|')
    .trim();
}

/** Three significant digits, which is all the noise of a shared machine allows. */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  return Number(ratio.toPrecision(3)).toString();
}

function formatMet(row: BenchRow): string {
  if (row.met === undefined) return '';
  return row.met ? 'yes' : '**no**';
}

export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return minutes === 0 ? `${seconds.toFixed(1)} s` : `${minutes} min ${String(whole % 60).padStart(2, '0')} s`;
}

export function renderTable(rows: readonly BenchRow[]): string {
  const lines = [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const cells = [
      row.benchmark,
      row.figure,
      row.baseline,
      formatRatio(row.ratio),
      row.goal ?? '',
      formatMet(row),
      row.note ?? '',
    ];
    lines.push(`| ${cells.map(cell).join(' | ')} |`);
  }
  return lines.join('\n');
}

export function renderDocument(run: RunDescription, rows: readonly BenchRow[]): string {
  const gib = (run.totalMemoryBytes / 1024 ** 3).toFixed(1);
  const perCase = run.caseSeconds.map(({ name, seconds }) => `${name} ${formatDuration(seconds)}`).join(', ');
  return [
    '# Benchmarks',
    '',
    'Each figure is compared with a baseline measured in the same run on the same machine; the ratio is',
    'what to compare between runs, not the absolute figures.',
    '',
    `- Machine: ${run.cpuModel}, ${run.cores} cores, ${gib} GiB RAM`,
    `- Node: ${run.nodeVersion}`,
    `- Date: ${run.startedAt.toISOString()}`,
    `- Total duration: ${formatDuration(run.totalSeconds)} (${perCase})`,
    `- Command: \`${run.command}\``,
    '',
    renderTable(rows),
    '',
  ].join('\n');
}
