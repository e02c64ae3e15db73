export { runImport, type ImportRequest, type ImportReport } from './run-import.js';
export { resolveImportPlan, type ImportPlan, type ImportMode } from './plan.js';
export { JournalMismatchError } from '../journal/open.js';
export { formatSummary } from './summary.js';
export { statusColumns, outcomes, type Outcome } from '../job-files/import/columns.js';
export type { Shard } from '../job-files/claims/ids.js';
