import { describeDelimiter, type DialectGuess, type Draft, type EncodingGuess } from '../../mapping/guess/index.js';
import type { EvidenceDirNext } from './mapping-guess-evidence.js';
import type { ReportLayoutGuess } from '../../mapping/guess/report-layout.js';
import type { FixedWidthGuess } from '../../mapping/guess/fixed-width/recognise.js';
import { fixedWidthSummaryLines } from '../../mapping/guess/fixed-width/render.js';

export interface GuessSummary {
  samplePath: string;
  /** Where the draft went; undefined for stdout. */
  out: string | undefined;
  encoding: EncodingGuess;
  dialect: DialectGuess;
  rows: number;
  draft: Draft;
  firstLine: number;
  /** Where the table sits when the export is a report: said first when the header is not line 1. */
  report?: ReportLayoutGuess | undefined;
  /** `--evidence-dir` for the import, when the draft maps evidence columns (mapping-guess-evidence.ts). */
  evidenceDir?: EvidenceDirNext | undefined;
  /** A fixed-width record file: its record types, said instead of a delimiter. */
  fixedWidth?: FixedWidthGuess | undefined;
}

/** What `mapping guess` says on stderr: what was decided, what needs a person, what to run next. */
export function formatGuessSummary(summary: GuessSummary): string {
  const { draft, dialect, encoding } = summary;
  const target = summary.out ?? 'the draft (stdout)';
  const mappingArgument = summary.out ?? 'DRAFT.yaml';
  const subjectWidth = Math.max(...draft.decisions.map((decision) => decision.subject.length), 10);
  const decisionWidth = Math.max(...draft.decisions.map((decision) => decision.decision.length), 10);
  const lines = [
    `mapping guess: ${summary.rows} rows of ${summary.samplePath}, ${encoding.encoding}, ` +
      (summary.fixedWidth !== undefined
        ? 'fixed-width records'
        : `${describeDelimiter(dialect.delimiter)} delimited, ` +
          (dialect.header ? 'a header line' : 'no header line')),
    ...(summary.fixedWidth === undefined ? [] : fixedWidthSummaryLines(summary.fixedWidth)),
    ...reportLines(summary.report),
    'decided:',
    ...draft.decisions.map(
      (decision) =>
        `  ${decision.subject.padEnd(subjectWidth)}  ${decision.decision.padEnd(decisionWidth)}  ${decision.confidence}`,
    ),
  ];
  if (draft.todos.length === 0) lines.push('needs a person: nothing (no TODO)');
  else {
    lines.push(`needs a person (${draft.todos.length} TODO${draft.todos.length === 1 ? '' : 's'} in ${target}):`);
    for (const todo of draft.todos) lines.push(`  line ${todo.line}  ${todo.field}: ${todo.message}`);
  }
  if (draft.checks.length > 0) {
    lines.push(`worth a look (${draft.checks.length} CHECK${draft.checks.length === 1 ? '' : 's'}):`);
    for (const check of draft.checks) lines.push(`  line ${check.line}  ${check.field}: ${check.message}`);
  }
  if (draft.unplaced.length > 0) {
    lines.push(
      `not placed (${draft.unplaced.length}, listed at the end of the draft): ${draft.unplaced.map((column) => JSON.stringify(column.column)).join(', ')}`,
    );
  }
  lines.push('next:');
  if (summary.out === undefined) lines.push('  save the draft: run again with --out DRAFT.yaml');
  const evidenceDir = summary.evidenceDir === undefined ? '' : ` --evidence-dir ${summary.evidenceDir.value}`;
  lines.push(
    `  bulk-disputes mapping explain ${mappingArgument} ${summary.samplePath} --line ${summary.firstLine}`,
    `  bulk-disputes import ${summary.samplePath} --mapping ${mappingArgument}${evidenceDir} --dry-run`,
  );
  if (summary.evidenceDir?.note !== undefined) lines.push(`  (${summary.evidenceDir.note})`);
  return `${lines.join('\n')}\n`;
}

/** A report's title lines and trailer, said before the decisions: the first line is not always the header. */
function reportLines(report: ReportLayoutGuess | undefined): string[] {
  if (report?.layout === undefined) return [];
  const lines: string[] = [];
  const titles = report.titleLines.length;
  if (titles > 0)
    lines.push(
      `the first line is not the header: line ${report.headerLine} is, after ${titles} title ${titles === 1 ? 'line' : 'lines'} ` +
        '(report.header in the draft; they are never rows)',
    );
  if (report.trailer !== undefined)
    lines.push(
      `the rows end before a trailer, ${report.trailer.line === undefined ? 'the last line' : `line ${report.trailer.line}`} ` +
        `${report.trailer.text} (report.trailer; it and the lines after it are never rows)`,
    );
  if (report.blankLinesInside > 0)
    lines.push(`${report.blankLinesInside} blank lines among the rows: skipped and counted (report), never rows`);
  return lines;
}
