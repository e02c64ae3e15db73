import { readJournalInOneRead } from '../job-files/read/journal-in-one-read.js';
import { jobStem } from '../job-files/job-name.js';
import { maskCardNumbers } from '../card-numbers/mask.js';
import Database from 'better-sqlite3';
import type { ServiceIdentity } from '../api/service-identity.js';
import { CsvFormatError } from '../csv/errors.js';
import type { WrittenDialect } from '../csv/layout.js';
import { readResultRecords } from '../job-files/import/result-records.js';
import { rowResult } from '../job-files/import/row-outcome.js';
import { displayKey } from '../job-files/import/write-results.js';
import { migratedClaimId } from '../job-files/migrate/group.js';
import { expectMigrateJournal, migrateRowsOf } from '../job-files/migrate/journal.js';
import { migrateOutcomeOf } from '../job-files/migrate/columns.js';
import type { TrackRow } from '../job-files/track/journal.js';
import { sourceShape } from '../job-files/read/source-bytes.js';
import { sourceError } from '../job-files/read/source-error.js';
import { readSourceTable, type TableShape } from '../job-files/read/read-table.js';
import { journalKindOf, tablesOf } from '../journal/kind.js';
import { expectImportJournal, importMetaOf } from '../job-files/import/meta.js';
import { migrateMetaOf } from '../job-files/migrate/meta.js';
import { recordedService } from '../journal/service-binding.js';

export type TrackSourceKind = 'import-journal' | 'migrate-journal' | 'results' | 'list';

export interface TrackSourcesRead {
  kinds: TrackSourceKind[];
  /** The service each journal source recorded: a journal of another service is refused. */
  services: { file: string; service: ServiceIdentity | undefined }[];
  /** The first source's dialect when it is a CSV, to write the status file in it. */
  csvDialect?: WrittenDialect;
  rows: number;
}

/**
 * The rows `track` follows, read from the sources withdraw takes (docs/track.md): an import's
 * journal (every input row, the ones that reached no case too, so that the status file has a line
 * for each), a migrate-v1 journal, a results file of ours (CSV or .xlsx), or a list with a
 * claim_id or case_id column. Each kind is told by its content, never its name. Rows go to `add`
 * as they are read: a 1,000,000-row journal is never held in memory.
 */
export async function readTrackSources(
  files: readonly string[],
  column: string | undefined,
  add: (row: TrackRow) => void,
): Promise<TrackSourcesRead> {
  const read: TrackSourcesRead = { kinds: [], services: [], rows: 0 };
  const counted = (row: TrackRow) => {
    read.rows++;
    add(row);
  };
  for (const [source, file] of files.entries()) {
    const job = jobStem(file);
    const shape = await sourceShape(file);
    if (shape.kind === 'sqlite') {
      const journal = readJournal(file, source, job, counted);
      read.kinds.push(journal.kind);
      read.services.push({ file, service: journal.service });
      // An import journal's first: the status file in the dialect of that import's input and results.
      if (source === 0 && journal.dialect !== undefined) read.csvDialect = journal.dialect;
      continue;
    }
    if (shape.kind === 'csv' && source === 0) read.csvDialect = shape.dialect;
    read.kinds.push(
      await readTable(file, shape.kind === 'csv' ? shape.dialect : undefined, column, { source, job }, counted),
    );
  }
  return read;
}

function readJournal(file: string, source: number, job: string, add: (row: TrackRow) => void): JournalRead {
  // One read transaction: a consistent picture even while the job that owns it runs on.
  return readJournalInOneRead(file, trackWords, (database) => readTables(file, database, source, job, add));
}

interface JournalRead {
  kind: 'import-journal' | 'migrate-journal';
  service: ServiceIdentity | undefined;
  /** An import journal's results dialect, when it recorded one. */
  dialect?: WrittenDialect | undefined;
}

function readTables(
  file: string,
  database: Database.Database,
  source: number,
  job: string,
  add: (row: TrackRow) => void,
): JournalRead {
  const tables = tablesOf(database);
  const service = recordedService(database, file);
  const kind = journalKindOf(tables);
  if (kind === 'import') {
    const meta = importMetaOf(database, file);
    expectImportJournal(meta);
    for (const record of readResultRecords(database)) {
      const { outcome, errorCode, errorMessage } = rowResult(record);
      const caseId = record.case_id ?? '';
      add({
        source,
        job,
        line: record.line,
        // Masked, as are the keys of a list below: a journal of a version before masking may hold one whole.
        claim_key: record.claim_key === null ? '' : maskCardNumbers(displayKey(record.claim_key)),
        claim_id: record.claim_id ?? '',
        case_id: caseId,
        note: caseId === '' ? `no case at the service (${outcome})` : '',
        job_outcome: outcome,
        job_error: jobError(errorCode, errorMessage),
      });
    }
    return { kind: 'import-journal', service, dialect: meta.get('results_dialect') };
  }
  if (kind === 'migrate-v1') {
    expectMigrateJournal(migrateMetaOf(database, file));
    for (const row of migrateRowsOf(database)) {
      const { outcome, code, message } = migrateOutcomeOf(row);
      const claimId = row.claim_id === '' ? migratedClaimId(row.group_key) : row.claim_id;
      // A case keeps its id when it migrates: the version 2 case is the same case.
      add({
        source,
        job,
        line: row.idx + 1,
        claim_key: row.group_key,
        claim_id: claimId,
        case_id: row.case_id,
        note: '',
        job_outcome: outcome,
        job_error: jobError(code, message),
      });
    }
    return { kind: 'migrate-journal', service };
  }
  const found = tables.size === 0 ? 'no tables' : `the tables ${[...tables].join(', ')}`;
  throw sourceError(
    file,
    `expected an import or migrate-v1 journal, a results file or a list of ids, got a SQLite database with ${found}`,
  );
}

/** A job's error for a row as the worklist shows it: `code: message`, or either alone. */
function jobError(code: string, message: string): string {
  return [code, message].filter((part) => part !== '').join(': ');
}

const trackWords = {
  busy: 'expected no run writing it, got one (track it when the run ends)',
  expected: 'a journal',
  readonly: true,
};

/** A results file's lines or a list's, each one row: a line that names no case or claim still gets a status line saying so. */
async function readTable(
  file: string,
  dialect: WrittenDialect | undefined,
  column: string | undefined,
  at: { source: number; job: string },
  add: (row: TrackRow) => void,
): Promise<'results' | 'list'> {
  const shape: TableShape = dialect === undefined ? { kind: 'xlsx' } : { kind: 'csv', dialect };
  try {
    return await readSourceTable(file, shape, column, (row) => {
      if ('error' in row) {
        add({
          ...at,
          line: row.line,
          claim_key: '',
          claim_id: '',
          case_id: '',
          note: `unreadable line: ${row.error.message}`,
          job_outcome: '',
          job_error: '',
        });
        return;
      }
      const [claimId, caseId, claimKey] = [
        row.cell('claimId').trim(),
        row.cell('caseId').trim(),
        row.cell('claimKey').trim(),
      ];
      add({
        ...at,
        line: row.line,
        claim_key: maskCardNumbers(claimKey),
        claim_id: claimId,
        case_id: caseId,
        note: claimId === '' && caseId === '' ? 'no claim or case id on this line' : '',
        job_outcome: row.cell('outcome').trim(),
        job_error: jobError(row.cell('errorCode').trim(), maskCardNumbers(row.cell('errorMessage').trim())),
      });
    });
  } catch (error) {
    if (error instanceof CsvFormatError)
      throw sourceError(
        file,
        `expected ${dialect === undefined ? 'a workbook' : 'CSV'} this tool can read, got ${error.message}`,
        error,
      );
    throw error;
  }
}
