/** The files SQLite keeps beside a database while it is used, or after a run that stopped. */
export const sqliteSiblings = ['-wal', '-shm', '-journal'] as const;

/** Whether a path is such a sibling, not a database of its own. */
export function isSqliteSibling(path: string): boolean {
  return sqliteSiblings.some((suffix) => path.endsWith(suffix));
}
