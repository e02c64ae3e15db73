import type { SandboxDatabase } from '../store/database.js';
import type { Environment } from '../store/records.js';

/**
 * The record of webhook deliveries: one row per attempt, so a user can see what their receiver was
 * sent and what it answered. Kept beside the sandbox's other tables, created by the webhooks
 * themselves: a sandbox without webhooks has no such table.
 */

export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed';

export interface DeliveryRow {
  seq: number;
  environment: Environment;
  event_id: string;
  url: string;
  /** 1 for the first try. */
  attempt: number;
  /** The receiver's HTTP status; null when none came (refused, reset, timed out). */
  status: number | null;
  /** Why the attempt did not deliver; null when it did. */
  error: string | null;
  outcome: DeliveryOutcome;
  /** Wall-clock time of the answer (ISO 8601). */
  at: string;
}

const schema = `
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  environment TEXT NOT NULL,
  event_id TEXT NOT NULL,
  url TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status INTEGER,
  error TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'retrying', 'failed')),
  at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_event ON webhook_deliveries (event_id);
`;

export function ensureDeliveriesTable(database: SandboxDatabase): void {
  database.exec(schema);
}

export function recordDelivery(database: SandboxDatabase, row: Omit<DeliveryRow, 'seq'>): void {
  database
    .prepare(
      `INSERT INTO webhook_deliveries (environment, event_id, url, attempt, status, error, outcome, at)
       VALUES (@environment, @event_id, @url, @attempt, @status, @error, @outcome, @at)`,
    )
    .run(row);
}

/** Every attempt, oldest first; only those of one event when `eventId` is given. */
export function listDeliveries(database: SandboxDatabase, eventId?: string): DeliveryRow[] {
  ensureDeliveriesTable(database);
  if (eventId === undefined)
    return database.prepare('SELECT * FROM webhook_deliveries ORDER BY seq').all() as DeliveryRow[];
  return database
    .prepare('SELECT * FROM webhook_deliveries WHERE event_id = ? ORDER BY seq')
    .all(eventId) as DeliveryRow[];
}

/** A delivery whose last attempt said `retrying`, with its event, to resume after a restart. */
export interface PendingRetry {
  environment: Environment;
  event_id: string;
  url: string;
  attempt: number;
  at: string;
  type: string;
  case_id: string;
  created: string;
}

/** Deliveries a stop interrupted between attempts, oldest first. */
export function pendingRetries(database: SandboxDatabase): PendingRetry[] {
  return database
    .prepare(
      `SELECT d.environment, d.event_id, d.url, d.attempt, d.at, e.type, e.case_id, e.created
       FROM webhook_deliveries d
       JOIN events e ON e.environment = d.environment AND e.event_id = d.event_id
       WHERE d.seq IN (SELECT MAX(seq) FROM webhook_deliveries GROUP BY environment, event_id, url)
         AND d.outcome = 'retrying'
       ORDER BY d.seq`,
    )
    .all() as PendingRetry[];
}
