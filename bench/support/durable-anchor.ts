import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startChildServer, type ChildServer } from './child-server.js';

/** durable-anchor-main.ts as compiled beside this module. */
const durableAnchorScript = fileURLToPath(new URL('./durable-anchor-main.js', import.meta.url));

/**
 * The sandbox's durable anchor in a child process: node:http writing a new_claim's rows into the
 * sandbox's storage at `dbFile` (one commit per request, or per event-loop turn as the sandbox
 * commits) and answering `body` with 201.
 */
export async function startDurableAnchor(
  dbFile: string,
  body: string,
  bodyFile: string,
  commits: 'per-request' | 'per-turn' = 'per-request',
): Promise<ChildServer> {
  await writeFile(bodyFile, body);
  const args = [durableAnchorScript, dbFile, bodyFile, ...(commits === 'per-turn' ? ['per-turn'] : [])];
  return startChildServer({ args, listening: /durable anchor listening on (http:\/\/\S+)/ });
}
