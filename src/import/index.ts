export { runImport, type ImportRequest, type ImportReport } from './run-import.js';
export { resolveImportPlan, type ImportPlan, type ImportMode } from './plan.js';
export { JournalInvalidError } from '../journal/meta.js';
/** @deprecated The same options, renamed: `ImportRequest` (what `runImport` is asked; docs/architecture.md, "A job's plan"). */
export type { ImportRequest as ImportOptions } from './plan.js';
export { JournalMismatchError } from '../journal/open.js';
export { formatSummary } from './summary.js';
export { statusColumns, outcomes, type Outcome } from '../job-files/import/columns.js';
export type { Shard } from '../job-files/claims/ids.js';
