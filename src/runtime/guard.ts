import { runtimeRefusal } from './supported.js';

/**
 * Imported first by the library's entry point: on a Node.js the tool does not support, importing
 * the library throws this sentence instead of the SQLite binding ending the process (supported.ts).
 */
const refusal = runtimeRefusal(process.versions.node);
if (refusal !== undefined) throw new Error(refusal);
