/**
 * bulk-disputes as a library: the wire schemas, the API client with its retry policy, the
 * logger factory, the sandbox, mapping files, the import and prune. The CLI (src/cli/) is built on exactly these.
 */
// First, so that an unsupported Node.js gets a sentence, not a crash (src/runtime/supported.ts).
import './runtime/guard.js';
export * from './api/index.js';
export { createLogger, redactedPaths, type LoggerOptions } from './logging/logger.js';
export { createSandbox, sandboxRoutes, type Sandbox, type SandboxOptions } from './sandbox/index.js';
export { loadMapping, parseMapping, MappingError } from './mapping/load.js';
export { mapRow, type MappedRow, type RowMapping } from './mapping/map-row.js';
export type { Mapping } from './mapping/schema.js';
export * from './import/index.js';
export * from './prune/index.js';
