import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startChildServer, type ChildServer } from './child-server.js';

/** bare-server-main.ts as compiled beside this module. */
const bareServerScript = fileURLToPath(new URL('./bare-server-main.js', import.meta.url));

/** A node:http server in a child process that reads each body and answers `body` with `status`, `delayMs` later. */
export async function startCannedJsonServer(
  status: number,
  body: string,
  bodyFile: string,
  delayMs = 0,
): Promise<ChildServer> {
  await writeFile(bodyFile, body);
  return startBareServer(['respond', String(status), bodyFile, String(delayMs)]);
}

/** A node:http server in a child process that reads each body, discards it and answers its size. */
export async function startDiscardingServer(): Promise<ChildServer> {
  return startBareServer(['discard']);
}

async function startBareServer(modeArgs: readonly string[]): Promise<ChildServer> {
  return startChildServer({
    args: [bareServerScript, ...modeArgs],
    listening: /bare server listening on (http:\/\/\S+)/,
  });
}
