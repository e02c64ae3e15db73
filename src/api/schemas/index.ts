/**
 * The wire schemas: the single description of the service's interface, used by the client (the
 * tolerant `*Response` readings) and the sandbox (the strict `*Schema` and `*Body` ones).
 */
export * from './known-values.js';
export * from './primitives.js';
export * from './tolerant.js';
export * from './evidence.js';
export * from './case.js';
export * from './claim.js';
export * from './resources.js';
export * from './errors.js';
export * from './list.js';
export * from './v1.js';
