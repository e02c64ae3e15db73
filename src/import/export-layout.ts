import type { ReadRowsOptions } from '../csv/read-rows.js';
import { isResultsHeader } from '../job-files/import/columns.js';
import type { Mapping } from '../mapping/schema.js';

/**
 * How an import's input is read under its mapping's `report` layout (docs/mappings.md, "Reports
 * with title lines, trailers and sections"): an export by the layout, one of our results files fed
 * back as it is, since it starts with its own header and holds no title or trailer line.
 */
export function exportLayout(mapping: Pick<Mapping, 'report'>): Pick<ReadRowsOptions, 'report' | 'readAsIs'> {
  return mapping.report === undefined ? {} : { report: mapping.report, readAsIs: isResultsHeader };
}
