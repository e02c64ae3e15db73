/**
 * bulk-disputes as a library: the wire schemas, the API client with its retry policy, and the
 * logger factory. The CLI (src/cli/) is built on exactly these.
 */
export * from './api/index.js';
export { createLogger, redactedPaths, type LoggerOptions } from './logging/logger.js';
