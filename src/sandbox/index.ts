export { createSandbox, type Sandbox, type SandboxOptions } from './server.js';
export { routes as sandboxRoutes } from './route-table.js';
