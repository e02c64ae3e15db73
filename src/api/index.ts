export * from './schemas/index.js';
export * from './errors.js';
export * from './retry-policy.js';
export * from './client/index.js';
export * from './service-identity.js';
export { ConnectionSetupError, type SetupCategory, type SetupCode } from './network/setup-error.js';
export type { Route } from './network/proxy-route.js';
export type { ProbeResult, ServerCertificate } from './network/probe.js';
