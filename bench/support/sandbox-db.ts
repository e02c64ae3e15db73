import Database from 'better-sqlite3';

/**
 * Counts read straight from a SQLite file: the sandbox's (WAL, so a reader beside the running
 * sandbox is fine) or a job's journal once its process has ended. What the service holds, as the
 * service keeps it, to check a command's own account against.
 */

/** Opens `file` read-only for `read`, and closes it however `read` ends. */
export function readDatabase<Result>(file: string, read: (database: Database.Database) => Result): Result {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return read(database);
  } finally {
    database.close();
  }
}

/** Claims the sandbox holds. */
export function claimsInSandbox(dbFile: string): number {
  return readDatabase(
    dbFile,
    (database) => (database.prepare('SELECT count(*) AS claims FROM claims').get() as { claims: number }).claims,
  );
}

/** Cases the sandbox holds, by status. */
export function casesInSandboxByStatus(dbFile: string): Map<string, number> {
  return readDatabase(dbFile, (database) => {
    const rows = database
      .prepare('SELECT status, count(*) AS cases FROM cases GROUP BY status ORDER BY cases DESC')
      .all() as { status: string; cases: number }[];
    return new Map(rows.map((row) => [row.status, row.cases]));
  });
}

/**
 * Events recorded after the event `eventId` in its environment (the list's order is the
 * sandbox's `seq`): what a reader of the events list from that cursor has to page through.
 */
export function eventsAfter(dbFile: string, eventId: string): number {
  return readDatabase(dbFile, (database) => {
    const anchor = database.prepare('SELECT seq, environment FROM events WHERE event_id = ?').get(eventId) as
      { seq: number; environment: string } | undefined;
    if (anchor === undefined) throw new Error(`sandbox ${dbFile}: expected the event ${eventId}, got none`);
    return (
      database
        .prepare('SELECT count(*) AS events FROM events WHERE environment = ? AND seq > ?')
        .get(anchor.environment, anchor.seq) as { events: number }
    ).events;
  });
}
