export { runPrune, pruneByPlan, type PruneReport, type PrunedJob, type PrunedFile } from './run-prune.js';
export { resolvePrunePlan, type PrunePlan, type PruneRequest } from './plan.js';
export { RetentionPolicyError, PruneUnreadableError } from './errors.js';
