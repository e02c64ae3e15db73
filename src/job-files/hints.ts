/**
 * One line per error code telling staff what to fix, from the messages the tool and the service
 * write (src/mapping/transforms, src/import, src/evidence, src/withdraw, src/api/errors.ts, the
 * sandbox's filing rules). Row codes are fixed in the results CSV, which is then fed back in as
 * the input. Kept with the results (not the report) because the import's results workbook writes
 * them as notes, and report and review, on higher floors, show the same words.
 */
const hints: Readonly<Record<string, string>> = {
  // Mapping transforms (src/mapping/transforms).
  amount_format:
    "write the amount as digits with the mapping's decimal separator (and grouping, if any), e.g. 1234.56; or fix the mapping's amount options",
  enum_unmapped:
    "use one of the values the mapping lists for this field, or add the export's value to the mapping's enum table",
  required_missing: 'fill in the empty cell (for the claim key: the key columns); the field is required',
  date_format: "write the date in the mapping's date format, or change the format in the mapping to match the export",
  year_invalid: 'write the year as two digits (28) or four digits (2028)',
  // What a spreadsheet did to a cell (src/mapping/spreadsheet-damage.ts).
  spreadsheet_damaged:
    'a spreadsheet saved this identifier as a number and lost digits: copy the value from the original export, with the column typed as text',
  arn_invalid:
    'write the acquirer reference number exactly as the card network issued it: 23 digits for Visa and Mastercard, digits only for the others',
  leading_zeros_dropped:
    'a spreadsheet dropped the leading zeros: write the code with all its digits (0123), with the column typed as text',
  card_number_in_key:
    'the claim key is a card number, which is never kept or sent: key the claims on a dispute reference column ' +
    '(claim.key in the mapping), then feed the results back',
  card_number_in_field:
    'a card number stands in an identifying field (an id, an ARN, a switch serial number, an evidence path): take the ' +
    'field from another column, or clear the card number from the cell, then feed the results back',
  // Rows set aside at staging (src/import/journal/duplicates.ts, src/mapping/rows): ok, nothing sent.
  row_skipped:
    "not a row to import by the mapping's rows.only: nothing was sent; if it should be imported, add its value to rows.only",
  duplicate_row:
    'the same dispute as the line error_message names, which carries its outcome: nothing was sent for this line; ' +
    'if the export carries several disputes of one transaction, set rows.several_disputes_per_transaction in the mapping',
  claim_key_taken:
    'the service holds another dispute under this claim key (another file or source used the same key): ' +
    "set claim.id_prefix in the mapping (the source's name or the year) or key on a column unique across " +
    'files, then import on a new journal; nothing was reported on the other claim',
  claim_withdrawn:
    'the claim was withdrawn at the service: import the corrected rows with a new id generation ' +
    '(--id-prefix redo-1) on a new journal, and keep that prefix for their re-runs',
  claim_id_changed:
    "the row was reported on a claim the service holds, but its key or the mapping's ids changed since: " +
    'feed it back with the mapping the results were made with, or clear claim_id to send it as a new ' +
    'claim',
  claim_exists_without_case:
    'the claim exists at the service without this case, and a case cannot be added to it: give the row a claim key of its own to send it as a new claim',
  // Staging and claim assembly (src/import/stage.ts, src/import/claim).
  schema_invalid:
    "the mapped value breaks the service's rules for the field named in error_field: fix the cell or the mapping",
  shared_field_mismatch:
    "rows of one claim must agree on claim-level fields: make this row match the claim's first row, or give it its own claim key",
  claim_incomplete:
    "another row of the same claim is invalid: fix that row (see the claim's other lines) and run again",
  case_id_duplicate: 'each case id may appear once: remove the duplicate row or give it its own case id',
  claim_id_conflict: "two claim keys map to one claim id: fix the key cells or the mapping's claim id template",
  not_finished:
    'the run stopped before this claim was done: run the same command again (import, migrate-v1 or ' +
    'withdraw) to continue; it resumes from its journal and sends nothing twice',
  // Taking claims back (src/withdraw).
  not_ours:
    "the claim at the service is not this job's (another dispute holds its id): it was left as it is; check that the source names the claims you meant",
  not_withdrawable:
    'only created or chargeback_filed cases can be withdrawn case by case: withdraw the whole claim (--scope claim) to close this one',
  not_found:
    'the service holds no such claim or case: check the id in the source (a typo, another environment, or deleted already); there is nothing to take back',
  // Reading the CSV (src/csv).
  csv_column_count: 'the row has more or fewer cells than the header: look for an unquoted delimiter or a missing cell',
  csv_blank_line: 'remove the blank line from the middle of the file',
  csv_quote: 'a quote appears inside an unquoted cell: quote the whole cell and double the inner quotes ("")',
  // Evidence files (src/evidence).
  evidence_path_outside: 'evidence paths must be relative and stay inside --evidence-dir: no absolute paths, no ..',
  evidence_not_found: 'put the file in --evidence-dir, or correct the path in the cell (names are case-sensitive)',
  evidence_not_allowed:
    "s3:// and https:// cells are read only from buckets, prefixes and hosts the mapping's evidence_sources lists: add the source there if it is the bank's own, or correct the cell",
  evidence_type_unsupported:
    'only JPEG, PNG and PDF are accepted (decided by content): convert the file, e.g. print it to PDF',
  evidence_too_large: 'shrink or split the file under the size limit (lower image resolution, compress the PDF)',
  evidence_pdf_too_many_pages: 'split the PDF or drop pages to stay within the page limit',
  evidence_pdf_too_complex:
    'the PDF would take too much memory or time to read (see docs/security.md): print it to a new PDF, or attach a scan as JPEG or PNG',
  // The service's filing review.
  parameter_missing:
    'the service needs the field in error_field before it files: fill it in the row (or map it) and run again',
  documentation_missing:
    'attach the required document (e.g. a transaction receipt) in the evidence columns and run again',
  filing_window_expired:
    'the filing window from the transaction date has passed: check the transaction date; if it is right, the case cannot be filed',
  workflow_queue:
    "the service's workflow queued the case instead of filing: review it in the service; nothing to fix in the file",
  workflow_hold:
    "the service's workflow put the case on hold: see the case review in the service before filing by hand",
  workflow_flag_for_review:
    "the service's workflow flagged the case for review: review it in the service, then file it there",
  // The service itself (src/api/errors.ts).
  CLAIMS_NETWORK:
    'the service could not be reached: check the network and CLAIMS_BASE_URL, then run the same command again',
  CLAIMS_UNAVAILABLE: 'the service was unavailable (503): run the same command again later; it resumes',
  CLAIMS_CONFLICT:
    'the service reports a conflict (409) such as an id in use: check the claim in the service before sending it again',
};

const genericHint = 'see error_message and error_field in the results CSV; fix the row and feed the file back in';

/** A one-line fix hint for an error code; codes without their own hint get a generic one. */
export function hintFor(code: string): string {
  return hints[code] ?? genericHint;
}

export const knownHintCodes: readonly string[] = Object.keys(hints);
