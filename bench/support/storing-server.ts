import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startChildServer, type ChildServer } from './child-server.js';

/** storing-server-main.ts as compiled beside this module. */
const storingServerScript = fileURLToPath(new URL('./storing-server-main.js', import.meta.url));

/** A node:http server in a child process that hashes each body and writes it to a file in `directory`. */
export async function startStoringServer(directory: string): Promise<ChildServer> {
  await mkdir(directory, { recursive: true });
  return startChildServer({
    args: [storingServerScript, directory],
    listening: /storing server listening on (http:\/\/\S+)/,
  });
}
