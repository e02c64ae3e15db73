/**
 * bulk-disputes as a library: the wire schemas, the API client with its retry policy, the
 * logger factory, and the sandbox. The CLI (src/cli/) is built on exactly these.
 */
export * from './api/index.js';
export { createLogger, redactedPaths, type LoggerOptions } from './logging/logger.js';
export { createSandbox, sandboxRoutes, type Sandbox, type SandboxOptions } from './sandbox/index.js';
