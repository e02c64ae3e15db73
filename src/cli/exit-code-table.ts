/**
 * The exit codes, the one table of them: the number each name stands for, what it means, and
 * what it means for a job command whose reading is its own. docs/exit-codes.md says the same in
 * words, and test/docs/exit-codes.test.ts holds the two to each other, word for word; every
 * `--help` that lists exit codes prints them from here (exit-code-help.ts).
 */

/** The commands that run a job, each with an exit-code list of its own in its help. */
export const jobCommands = ['import', 'migrate-v1', 'withdraw', 'export', 'track', 'merge-results'] as const;
export type JobCommand = (typeof jobCommands)[number];

export interface ExitCodeRow {
  readonly code: number;
  /** What the code says for every command: the page's first table. */
  readonly meaning: string;
  /**
   * What it says for a job command whose reading is its own: the page's "Command by command"
   * table. null: that command never ends with this code, so its help leaves it out.
   */
  readonly byCommand: Readonly<Partial<Record<JobCommand, string | null>>>;
}

/** Codes 4 to 6 stop before anything is sent; merge-results sends nothing, so never ends with them. */
const notMergeResults = { 'merge-results': null } as const;

export const exitCodeTable = {
  ok: {
    code: 0,
    meaning: 'every row ok',
    byCommand: {
      import: 'every row filed, created or valid, or set aside (skipped, duplicate)',
      'migrate-v1': 'all migrated or skipped',
      withdraw: 'all done',
      export: 'done',
      track: 'nothing on the worklist',
      'merge-results': "the merged file written, whatever its rows' outcomes",
    },
  },
  someRowsNotOk: {
    code: 1,
    meaning: 'finished, some rows not ok (see the results CSV)',
    byCommand: {
      import:
        'some rows not (evidence the mapping does not allow among them, evidence_not_allowed; a dry run: some ' +
        'invalid, or would_not_file where filing rules would stop their case)',
      'migrate-v1': 'some failed or rejected',
      withdraw: 'some not',
      export: null,
      track: 'something on the worklist',
      'merge-results': null,
    },
  },
  usage: {
    code: 2,
    meaning: 'usage, configuration or mapping error: nothing was sent',
    byCommand: {
      import:
        'usage, mapping, a header without columns the mapping reads (HEADER_MISMATCH), a report whose header ' +
        'its layout does not find (csv_header_not_found), a trailer that disagrees with its block ' +
        '(TRAILER_MISMATCH, TRAILER_MISSING), a journal of another input, flags or service ' +
        '(SERVICE_MISMATCH), a thinned journal with claims left to send (JOURNAL_THINNED), old Mac line ends ' +
        '(csv_line_endings), an s3:// address that is none, no such object, a store setting to fix ' +
        '(OBJECT_ADDRESS, OBJECT_NOT_FOUND, OBJECT_STORE_SETTINGS): nothing sent',
      'migrate-v1': 'usage, a journal of another --group-by or service',
      withdraw: 'nothing sent (usage, a live key without --yes, not confirmed)',
      export: 'usage, a state file of another resource or service: nothing sent',
      track: 'nothing read (usage)',
      'merge-results':
        "a shard missing, repeated or foreign, a file that is not an import's journal, a shard prune thinned " +
        '(JOURNAL_THINNED): nothing written',
    },
  },
  aborted: {
    code: 3,
    meaning: 'aborted (authentication refused, service unavailable, disk): run the same command again',
    byCommand: {
      import:
        "key refused, claims failing on the service's side (5 or more in the last minute, and half of those " +
        'that ended), an evidence store or document server not answering (EVIDENCE_SOURCE_UNAVAILABLE), disk, ' +
        'a signal, JOURNAL_BUSY: run it again (the store refusing its key and secret, OBJECT_STORE_CREDENTIALS, is 5)',
      'migrate-v1': 'key refused, service down: run it again',
      withdraw: 'aborted: run it again',
      export: 'service unavailable or key refused: run it again',
      track: 'stopped early: run it again',
      'merge-results': 'JOURNAL_BUSY: a shard still running',
    },
  },
  serverCertificate: {
    code: 4,
    meaning: "the server's certificate is not trusted (untrusted CA, expired, another host): nothing was sent",
    byCommand: notMergeResults,
  },
  clientCertificate: {
    code: 5,
    meaning:
      'credentials refused: the client certificate (none given where one is asked for, refused, its key ' +
      "not its own, a wrong passphrase) or the object store's key and secret: nothing was sent",
    byCommand: notMergeResults,
  },
  proxy: {
    code: 6,
    meaning: 'the proxy: unreachable, or refusing the tunnel (407, 403): nothing was sent',
    byCommand: notMergeResults,
  },
} as const satisfies Record<string, ExitCodeRow>;

/** The table's rows, lowest code first. */
export const exitCodeRows: readonly (ExitCodeRow & { readonly name: string })[] = Object.entries(exitCodeTable)
  .map(([name, row]) => ({ name, ...row }))
  .sort((one, other) => one.code - other.code);

/** What a code means for one command: its own reading, the shared one, or undefined when it never ends so. */
export function exitCodeMeaning(row: ExitCodeRow, command?: JobCommand): string | undefined {
  if (command === undefined) return row.meaning;
  const own = row.byCommand[command];
  return own === null ? undefined : (own ?? row.meaning);
}
