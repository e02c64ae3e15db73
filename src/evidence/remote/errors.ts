import { CodedError } from '../../errors/coded-error.js';

/**
 * A document server that kept failing on its side (5xx, 429, timeouts, resets) after the
 * attempts allowed: the run stops, like a store that does not answer, and the same command run
 * again continues from the journal (exit 3), the row not marked invalid for what may pass.
 */
export class DocumentServerUnavailableError extends CodedError {
  readonly code = 'EVIDENCE_SOURCE_UNAVAILABLE';
}
