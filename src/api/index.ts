export * from './schemas/index.js';
export * from './errors.js';
export * from './retry-policy.js';
export * from './client/index.js';
export * from './service-identity.js';
