import type { Options } from 'csv-stringify';

/**
 * How every CSV this tool writes without an input to follow (exports, migrate-v1 results) is
 * stringified: LF line ends, no BOM, and a lone CR quoted like LF. Spreadsheets and most CSV
 * readers take a lone CR for a line break, and csv-stringify quotes only its own record delimiter
 * (found by the CSV fuzzing of the reliability tests: an unquoted CR split one results row in two).
 */
export const csvWriteOptions = { bom: false, record_delimiter: 'unix', quoted_match: /\r/ } as const satisfies Options;
