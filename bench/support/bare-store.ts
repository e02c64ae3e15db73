import { fileURLToPath } from 'node:url';
import { startChildServer, type ChildServer } from './child-server.js';

/** bare-store-main.ts as compiled beside this module. */
const bareStoreScript = fileURLToPath(new URL('./bare-store-main.js', import.meta.url));

/**
 * The least S3-compatible store (bare-store-main.ts) in a child process, serving `folder`'s
 * `bucket/key` files, each `delayMs` after its request.
 */
export async function startBareStore(folder: string, delayMs = 0): Promise<ChildServer> {
  return startChildServer({
    args: [bareStoreScript, folder, String(delayMs)],
    listening: /bare store listening on (http:\/\/\S+)/,
  });
}
