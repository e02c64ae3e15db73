import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { codeOf } from '../errors/coded-error.js';
import { expectOwnPath, ownMode } from '../files/own-file.js';

/**
 * The prune record (docs/data.md, "Retention"): one JSON line per job thinned or removed and one
 * per run, appended, never rewritten; what a quarterly check reads. It holds paths, dates, counts,
 * roles and the policy: no personal data (a test holds it to that).
 */
export const pruneRecordName = 'prune-record.jsonl';

export interface JobRecordLine {
  readonly at: string;
  readonly event: 'thinned' | 'removed' | 'finished';
  readonly job: string;
  readonly kind: string;
  readonly policy: { readonly keep_personal_data: string; readonly keep_records: string };
  /** What the dates count from: the last case's closing, or the job's last run. */
  readonly since: { readonly what: string; readonly at: string };
  readonly files: readonly {
    readonly path: string;
    readonly role: string;
    readonly bytes: number;
    readonly action: string;
  }[];
  /** The kinds of personal data removed (docs/data.md, "Retention"). */
  readonly removed: readonly string[];
}

export interface RunRecordLine {
  readonly at: string;
  readonly event: 'run';
  readonly paths: readonly string[];
  readonly policy: { readonly keep_personal_data: string; readonly keep_records: string };
  readonly jobs: Readonly<Record<string, number>>;
  readonly bytes_deleted: number;
}

/** Appends a line, synced: a line written is a line kept, even if the machine stops next. */
export function appendRecord(file: string, line: JobRecordLine | RunRecordLine): void {
  // Never through a link planted at its name (docs/data.md, "Links where the tool writes"); its
  // folder made as every job's output folder is, with the umask.
  mkdirSync(dirname(file), { recursive: true });
  expectOwnPath(file);
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, ownMode);
  } catch (error) {
    if (codeOf(error) === 'ELOOP') expectOwnPath(file);
    throw error;
  }
  try {
    // Written before under another mode (a copy, a umask): made the owner's, as every file of ours.
    if ((fstatSync(fd).mode & 0o777) !== ownMode) fchmodSync(fd, ownMode);
    writeSync(fd, `${JSON.stringify(line)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
