import type { ServiceIdentity } from '../api/service-identity.js';
import type { WrittenDialect } from '../csv/layout.js';
import { maybeCreatedOutcomes } from '../job-files/import/columns.js';
import { readJournalSource } from './journal-source.js';
import { sourceShape } from '../job-files/read/source-bytes.js';
import { SourceError } from '../job-files/read/source-error.js';
import { TargetMerger } from './source-targets.js';
import { readTableSource } from './table-source.js';
import type { WithdrawTarget } from '../job-files/withdraw/target.js';

/**
 * What `bulk-disputes withdraw <source...>` takes back, read from its sources: an import's journal
 * (or its shards'), a migrate-v1 journal, a results file of ours (CSV in any dialect we write, or a
 * workbook), or a plain list of claim or case ids. Each kind is told by its content, never its
 * name: SQLite's magic and tables, a zip's signature, a CSV's header.
 */

// The target is the journal's vocabulary too: it lives in target.ts, below both (no circle).
export type { WithdrawTarget } from '../job-files/withdraw/target.js';

export type SourceKind = 'import-journal' | 'migrate-journal' | 'results' | 'list';

export interface SourcesRead {
  /** One per claim id, merged across sources in first-seen order; a case named without its claim is one target per case. */
  targets: WithdrawTarget[];
  /** Per source file, in argument order. */
  kinds: SourceKind[];
  /** The service each journal source recorded, to refuse a journal of another service. */
  services: { file: string; service: ServiceIdentity | undefined }[];
  /**
   * The first source's dialect when it is a CSV (results or list), to write the withdraw's results
   * in it; undefined for journals and workbooks. Its line ending and byte order mark too: what a
   * file written for it must repeat to open the same way.
   */
  csvDialect?: WrittenDialect;
  /** Any source is a workbook (.xlsx). */
  workbook: boolean;
  /** Lines of the sources that named nothing usable or could not be read: counted and told, never silently dropped. */
  skipped: { file: string; line: number; reason: string }[];
  /** Claim keys asked for that name no claim the sources could take back, --outcome aside (a typo at 02:30 must not pass for "nothing to do"). */
  unmatchedClaimKeys: string[];
}

export interface SourceOptions {
  /** Only the rows (cases) with one of these outcomes, as the results report them, and their claims. */
  outcomes?: readonly string[];
  /** Only these claims, by their key as the results show it (or a one-column key's value). */
  claimKeys?: readonly string[];
  /** A list's header holding the ids: case ids when its name says `case`, else claim ids (src/job-files/read/table-layout.ts). */
  column?: string;
}

/**
 * The sources, in argument order, into one list of claims to take back. Throws
 * `SourceError` at the first source that cannot be read (before any request: exit 2),
 * and `JournalBusyError` for a journal a run is using.
 */
export async function readSources(files: readonly string[], options: SourceOptions): Promise<SourcesRead> {
  checkOutcomes(options.outcomes ?? []);
  const merger = new TargetMerger();
  const seenKeys = new Set<string>();
  const read: SourcesRead = {
    targets: [],
    kinds: [],
    services: [],
    workbook: false,
    skipped: [],
    unmatchedClaimKeys: [],
  };
  for (const [position, file] of files.entries()) {
    const shape = await sourceShape(file);
    if (shape.kind === 'sqlite') {
      const journal = readJournalSource(file, options, seenKeys);
      read.kinds.push(journal.kind);
      read.services.push({ file, service: journal.service });
      for (const target of journal.targets) merger.add(target);
      // An import journal's first: the results in the dialect of that import's input and results.
      if (position === 0 && journal.dialect !== undefined) read.csvDialect = journal.dialect;
      continue;
    }
    const sink = {
      add: (target: WithdrawTarget) => {
        merger.add(target);
      },
      skip: (line: number, reason: string) => {
        read.skipped.push({ file, line, reason });
      },
    };
    read.kinds.push(await readTableSource(file, shape, options, seenKeys, sink));
    if (shape.kind === 'xlsx') read.workbook = true;
    else if (position === 0) read.csvDialect = shape.dialect;
  }
  read.targets = merger.targets();
  read.unmatchedClaimKeys = (options.claimKeys ?? []).filter((key) => !seenKeys.has(key));
  return read;
}

/** The outcomes of rows whose claim may exist at the service: the import's (columns.ts), and migrate-v1's. */
const takenBackOutcomes: readonly string[] = [...maybeCreatedOutcomes, 'migrated'];

/** Any other outcome names nothing to take back (never created, or a typo): refused before anything is read, not run as "nothing to do". */
function checkOutcomes(outcomes: readonly string[]): void {
  const other = outcomes.find((outcome) => !takenBackOutcomes.includes(outcome));
  if (other !== undefined)
    throw new SourceError(
      `--outcome: expected one of ${takenBackOutcomes.join(', ')} (the outcomes of claims a job created), got ${JSON.stringify(other)}`,
    );
}
