import type { Controls } from '../csv/controls.js';
import { fixedWidthColumns, recordOfRole } from '../csv/fixed-width/columns.js';
import type { FixedWidthLayout } from '../csv/fixed-width/layout.js';
import type { ReportLayout } from '../csv/report-layout.js';

/**
 * What the schema checks across a mapping's `fixed_width`, `report` and `controls` sections
 * (docs/mappings.md, "Fixed-width files and control records"): a control figure must be where the
 * file can state it, a sum must add a column the rows have.
 */
interface LayoutSections {
  readonly fixed_width?: FixedWidthLayout | undefined;
  readonly report?: ReportLayout | undefined;
  readonly controls?: Controls | undefined;
}

export function fixedWidthIssues(mapping: LayoutSections): { message: string; path: (string | number)[] }[] {
  const issues: { message: string; path: (string | number)[] }[] = [];
  const { fixed_width: layout, report, controls } = mapping;
  if (layout !== undefined && report !== undefined)
    issues.push({
      path: ['report'],
      message: 'expected either fixed_width or report, got both (a fixed-width file has its record types instead)',
    });
  if (controls === undefined) return issues;
  const trailer = layout === undefined ? undefined : recordOfRole(layout, 'trailer');
  for (const name of ['record_count', 'amount_total'] as const) {
    const figure = controls[name];
    if (figure === undefined) continue;
    const path = ['controls', name];
    if (layout !== undefined) {
      if (figure.field === undefined)
        issues.push({
          path,
          message: 'expected field (a fixed-width file states its figures in trailer fields), got matches',
        });
      else if (trailer === undefined)
        issues.push({ path, message: 'expected a record type with role trailer in fixed_width.records, got none' });
      else if (trailer.record.fields[figure.field] === undefined)
        issues.push({
          path: [...path, 'field'],
          message: `expected a field of the trailer record ${JSON.stringify(trailer.type)}, got ${JSON.stringify(figure.field)}`,
        });
    } else if (figure.matches === undefined)
      issues.push({ path, message: 'expected matches (a CSV report states its figures in a trailer line), got field' });
    else if (report?.trailer === undefined)
      issues.push({ path, message: 'expected report.trailer (the lines the figures are read from), got none' });
    // A trailer of the last N lines is only known at the end, after its lines were counted as rows.
    else if (report.trailer.lines !== undefined)
      issues.push({
        path,
        message:
          'expected report.trailer found by starts_with or matches (its lines known as they are read), got lines',
      });
  }
  const sums = controls.amount_total?.sums;
  if (sums !== undefined && layout !== undefined && !fixedWidthColumns(layout).includes(sums))
    issues.push({
      path: ['controls', 'amount_total', 'sums'],
      message: `expected a field of the detail record, got ${JSON.stringify(sums)}`,
    });
  return issues;
}
