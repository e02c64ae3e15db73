export { runImport, type ImportOptions, type ImportReport } from './run-import.js';
export { JournalMismatchError } from '../journal/open.js';
export { formatSummary } from './summary.js';
export { statusColumns, outcomes, type Outcome } from '../job-files/import/columns.js';
export type { Shard } from '../job-files/claims/ids.js';
