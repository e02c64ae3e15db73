export { runImport, type ImportOptions, type ImportReport } from './run-import.js';
export { JournalMismatchError } from './journal/schema.js';
export { formatSummary } from './summary.js';
export { statusColumns, outcomes, type Outcome } from './results/columns.js';
export type { Shard } from './ids.js';
