/**
 * The base of the errors this code throws on purpose: each carries a stable `code` (a log search,
 * a test and the CLI's exit code read it), so a catch reads `error.code` after an `instanceof`
 * check instead of casting. It sets nothing else: each error keeps its own name and message.
 */
export abstract class CodedError extends Error {
  abstract readonly code: string;
}

/**
 * A file or a setting this run cannot use (a mapping, an input, a journal of another job, a flag):
 * the same command would fail the same way, so the CLI exits 2 and logs the code and the message,
 * never a stack (docs/exit-codes.md). Exit 3, "run the same command again", is for what may pass.
 */
export abstract class RefusalError extends CodedError {}

/**
 * The `code` of a thrown error when it has one as a string: Node's system errors (ENOENT,
 * EPIPE), SQLite's (SQLITE_BUSY, SQLITE_CONSTRAINT_UNIQUE), undici's and csv-parse's, and our own.
 * Undefined for anything else, a thrown string or an error without a code.
 */
export function codeOf(error: unknown): string | undefined {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}
