export { runImport, JournalMismatchError, type ImportOptions, type ImportReport } from './run-import.js';
export { formatSummary } from './summary.js';
export { statusColumns, outcomes, type Outcome } from './results/columns.js';
export type { Shard } from './ids.js';
