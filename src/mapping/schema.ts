import { z } from 'zod';
import { fileCategories } from '../api/schemas/known-values.js';
import { csvDialectSchema } from '../csv/dialect.js';
import { evidenceSourcesSchema } from './evidence-sources.js';
import { controlsSchema } from '../csv/controls.js';
import { fixedWidthLayoutSchema } from '../csv/fixed-width/layout.js';
import { reportLayoutSchema } from '../csv/report-layout.js';
import { fixedWidthIssues } from './fixed-width-issues.js';
import { fieldSpecSchema } from './field-spec.js';
import { optionalColumnIssues } from './optional-columns.js';
import { rowsSchema } from './rows/schema.js';
import { caseTargets, requiredCaseTargets, requiredSharedTargets, sharedTargets } from './targets.js';

/**
 * A mapping file: how one issuer export layout becomes new_claim bodies (mappings/README.md). YAML
 * or JSON; its JSON Schema (mappings/mapping.schema.json) is generated from this and checked
 * against it by the test suite.
 */

const targetsOf = (targets: string[]) => z.enum(targets as [string, ...string[]]);

/** A list of column names, none twice. */
const distinctColumns = () =>
  z.array(z.string().min(1)).refine((columns) => new Set(columns).size === columns.length, 'expected each column once');

/**
 * `claim.id_prefix`: claim ids derive from the claim key, so two sources or two years whose keys
 * overlap would meet at one claim id. A short name stated once keeps them apart. Only characters
 * that read the same in an id and a URL path, first a letter or digit so that no spreadsheet reads
 * a results cell as a formula; 40 at most, so a prefixed id stays well inside the service's 126.
 */
export const idPrefixPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
export const idPrefixExpected = 'expected 1 to 40 letters, digits, ".", "_" or "-", starting with a letter or digit';
// `id_prefix: 2026` is a number to YAML: the message says to quote it rather than only "not a string".
const idPrefixGot = (input: unknown) =>
  typeof input === 'number' ? `the number ${input} (quote it: "${input}")` : JSON.stringify(input);
const idPrefixSchema = z
  .string({ error: (issue) => `${idPrefixExpected}, got ${idPrefixGot(issue.input)}` })
  .regex(idPrefixPattern, { error: (issue) => `${idPrefixExpected}, got ${idPrefixGot(issue.input)}` })
  .describe(
    "prefixes every claim and case id the mapping makes, e.g. the source's name or the year " +
      '("visa-2026"), so two sources or years whose keys overlap never share an id; changes every id: set ' +
      'it before the first run',
  );

export const mappingSchema = z
  .strictObject({
    $schema: z.string().optional(),
    description: z.string().optional().describe('what export layout this mapping reads'),
    csv: csvDialectSchema.default(csvDialectSchema.parse({})).describe('how the CSV is written'),
    report: reportLayoutSchema
      .optional()
      .describe(
        'a report around the table: title lines before the header, a trailer, blank lines, the header repeated, ' +
          'records of several types; every line outside the table is counted, none is a row',
      ),
    fixed_width: fixedWidthLayoutSchema
      .optional()
      .describe(
        'a fixed-width record file instead of a CSV: record types by position, each with its fields at fixed ' +
          'positions; the detail records are the rows, their fields the columns (csv then says how the results ' +
          'file is written and read back)',
      ),
    controls: controlsSchema
      .optional()
      .describe(
        "the trailer's control figures (record count, amount total), checked block by block before anything is " +
          'staged or sent: a mismatch stops the import (TRAILER_MISMATCH, exit 2)',
      ),
    claim: z
      .strictObject({
        key: z
          .array(z.string().min(1))
          .min(1)
          .describe('columns whose values, together, say which claim a row belongs to'),
        id: fieldSpecSchema
          .optional()
          .describe('the claim id; default: derived from the key, so re-runs never duplicate'),
        id_prefix: idPrefixSchema.optional(),
      })
      .describe('how rows group into claims'),
    shared: z
      .partialRecord(targetsOf(sharedTargets), fieldSpecSchema)
      .describe('fields of the claim, the same on each of its rows'),
    case: z.partialRecord(targetsOf(caseTargets), fieldSpecSchema).describe('fields of each case (one per row)'),
    custom_fields: z
      .record(z.string().min(1).max(50), fieldSpecSchema)
      .refine((fields) => Object.keys(fields).length <= 25, 'expected at most 25 custom fields')
      .default({})
      .describe('custom field name → its source'),
    evidence: z
      .array(
        z.strictObject({
          column: z
            .string()
            .min(1)
            .describe(
              'cell holding a path inside --evidence-dir, or an s3:// or https:// address evidence_sources allows',
            ),
          category: z.enum(fileCategories),
          separator: z.string().min(1).optional().describe('several paths in one cell, e.g. ";"'),
        }),
      )
      .default([])
      .describe('files to upload and attach to the claim'),
    evidence_sources: evidenceSourcesSchema.optional(),
    not_card_numbers: distinctColumns()
      .optional()
      .describe(
        'columns whose numbers pass as card numbers but are not (16-digit order numbers that happen to pass ' +
          'Luhn): the import leaves their cells unmasked. RISK: a real card number in such a column is kept in ' +
          'the journal and the results file, and sent in full if the column is mapped',
      ),
    optional_columns: distinctColumns()
      .optional()
      .describe(
        'columns the mapping reads that a file may lack: an absent one reads as blank cells (its fields left out, ' +
          'or given their default). Every other column the mapping reads must be in the header, or the import ' +
          'stops before anything is staged (HEADER_MISMATCH)',
      ),
    rows: rowsSchema.optional(),
    file_mode: z
      .enum(['none', 'auto', 'chargeback'])
      .default('auto')
      .describe('filing after creation, unless --file-mode says otherwise'),
  })
  .superRefine((mapping, context) => {
    const required: [string, readonly string[], Readonly<Record<string, unknown>>][] = [
      ['shared', requiredSharedTargets, mapping.shared],
      ['case', requiredCaseTargets, mapping.case],
    ];
    for (const [section, targets, sources] of required) {
      for (const target of targets) {
        if (sources[target] === undefined)
          context.addIssue({
            code: 'custom',
            message: `expected a source for ${target} (new_claim needs it), got none`,
            path: [section],
          });
      }
    }
    const hasReference =
      mapping.case['transaction.arn'] !== undefined ||
      Object.keys(mapping.case).some((target) => target.endsWith('.switch_serial_number'));
    if (!hasReference)
      context.addIssue({
        code: 'custom',
        message: 'expected a source for transaction.arn or a switch_serial_number, got none',
        path: ['case'],
      });
    for (const issue of optionalColumnIssues(mapping)) context.addIssue({ code: 'custom', ...issue });
    for (const issue of fixedWidthIssues(mapping)) context.addIssue({ code: 'custom', ...issue });
  });

export type Mapping = z.output<typeof mappingSchema>;
