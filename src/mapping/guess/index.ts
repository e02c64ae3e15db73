/** `mapping guess` (docs/mappings.md): a draft mapping inferred from a sample of an export. Pure. */
export { sniffEncoding, UnsupportedEncodingError, type EncodingGuess } from '../../csv/sniff-encoding.js';
export { sniffDialect, describeDelimiter, type DialectGuess } from '../../csv/sniff-dialect.js';
export { guessMapping, type Draft, type Decision, type GuessInput } from './guess-mapping.js';
export type { Sample, Confidence } from './types.js';
