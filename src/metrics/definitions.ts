import type { AnswerKind } from '../api/client/answer-kind.js';
import { finished, type RunOutcome } from './run-outcome.js';

/**
 * The jobs' metrics, one list (docs/monitoring.md): all gauges, each with its help text, its own
 * labels, and how its values are read from a run's outcome. The grouping labels (`job`,
 * `environment`, `shard`) are added to every series.
 */
export interface MetricDefinition {
  name: string;
  help: string;
  labels: readonly string[];
  /** The series: label values (in `labels`' order) and value. None: the metric is left out. */
  values(outcome: RunOutcome): readonly Sample[];
}

export interface Sample {
  labels: Readonly<Record<string, string>>;
  value: number;
}

const one = (value: number | undefined): Sample[] => (value === undefined ? [] : [{ labels: {}, value }]);
const endSeconds = (outcome: RunOutcome) => outcome.endedAt.getTime() / 1000;
const byKey = (label: string, counts: Readonly<Record<string, number>> | undefined): Sample[] =>
  Object.entries(counts ?? {}).map(([key, value]) => ({ labels: { [label]: key }, value }));

/** The metric's words for the client's kinds of answer. */
const answerClass: Record<AnswerKind, string> = {
  accepted: 'accepted',
  'rate-limited': 'rate_limited',
  refused: 'refused',
  'case-unavailable': 'case_unavailable',
  failed: 'failed',
};

export const metricDefinitions: readonly MetricDefinition[] = [
  {
    name: 'bulk_disputes_last_run_timestamp_seconds',
    help: 'Unix time the run ended, whatever its exit code',
    labels: [],
    values: (outcome) => one(endSeconds(outcome)),
  },
  {
    name: 'bulk_disputes_last_success_timestamp_seconds',
    help: 'Unix time the run ended, pushed only when the job finished (exit 0 or 1)',
    labels: [],
    values: (outcome) => one(finished(outcome.exitCode) ? endSeconds(outcome) : undefined),
  },
  {
    name: 'bulk_disputes_last_exit_code',
    help: "The run's exit code (docs/exit-codes.md)",
    labels: [],
    values: (outcome) => one(outcome.exitCode),
  },
  {
    name: 'bulk_disputes_run_duration_seconds',
    help: 'Seconds per phase of the run, and phase="total"',
    labels: ['phase'],
    values: ({ phases }) =>
      phases === undefined || phases.length === 0
        ? []
        : [
            ...phases.map(({ phase, seconds }) => ({ labels: { phase }, value: seconds })),
            { labels: { phase: 'total' }, value: phases.reduce((total, { seconds }) => total + seconds, 0) },
          ],
  },
  {
    name: 'bulk_disputes_rows',
    help: 'Input rows by outcome; ok says whether that outcome is a good one',
    labels: ['outcome', 'ok'],
    values: ({ rows }) =>
      (rows ?? []).map(({ outcome, ok, count }) => ({ labels: { outcome, ok: String(ok) }, value: count })),
  },
  {
    name: 'bulk_disputes_claims',
    help: 'Claims by outcome',
    labels: ['outcome'],
    values: ({ claims }) => (claims ?? []).map(({ outcome, count }) => ({ labels: { outcome }, value: count })),
  },
  {
    name: 'bulk_disputes_requests',
    help: 'Requests sent, retries included, by route (ids as {id}) and answer class',
    labels: ['route', 'answer'],
    values: ({ requests, throttling }) =>
      (requests ?? throttling?.byRoute ?? []).map(({ route, answer, requests: count }) => ({
        labels: { route, answer: answerClass[answer] },
        value: count,
      })),
  },
  {
    name: 'bulk_disputes_refusals',
    help: 'Refused requests by kind: 429, 503, no_answer',
    labels: ['kind'],
    values: ({ throttling }) =>
      throttling === undefined
        ? []
        : [
            { labels: { kind: '429' }, value: throttling.answered429 },
            { labels: { kind: '503' }, value: throttling.answered503 },
            { labels: { kind: 'no_answer' }, value: throttling.failed },
          ],
  },
  {
    name: 'bulk_disputes_retries_held_back',
    help: 'Retries that waited for the retry budget',
    labels: [],
    values: ({ throttling }) => one(throttling?.retriesHeldBack),
  },
  {
    name: 'bulk_disputes_concurrency_settled',
    help: 'The claims in flight held longest (the adaptive limit)',
    labels: [],
    values: ({ throttling }) => one(throttling?.concurrency?.settled),
  },
  {
    name: 'bulk_disputes_worklist_cases',
    help: 'track: cases on the worklist by why',
    labels: ['why'],
    values: ({ track }) => byKey('why', track?.worklistByWhy),
  },
  {
    name: 'bulk_disputes_worklist_overdue_cases',
    help: 'track: worklist cases past their due date',
    labels: [],
    values: ({ track }) => one(track?.worklistOverdue),
  },
  {
    name: 'bulk_disputes_cases',
    help: 'track: cases by status',
    labels: ['status'],
    values: ({ track }) => byKey('status', track?.casesByStatus),
  },
  {
    name: 'bulk_disputes_recovery_ratio',
    help: 'track: amount recovered (won) over amount disputed, by currency',
    labels: ['currency'],
    values: ({ track }) => byKey('currency', track?.recoveryByCurrency),
  },
  {
    name: 'bulk_disputes_prune_jobs',
    help: 'prune: jobs by what the run did with them (thin, remove, finish, keep, leave)',
    labels: ['action'],
    values: ({ prune }) => byKey('action', prune?.jobsByAction),
  },
  {
    name: 'bulk_disputes_prune_deleted_bytes',
    help: 'prune: bytes of job files deleted by the run',
    labels: [],
    values: ({ prune }) => one(prune?.bytesDeleted),
  },
  {
    name: 'bulk_disputes_prune_keep_personal_data_seconds',
    help: "prune: the policy's personal-data period, in seconds (the overdue alert's allowance)",
    labels: [],
    values: ({ prune }) => one(prune?.keepPersonalDataSeconds),
  },
];
