import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeHtml } from '../job-files/html.js';

/**
 * How long the redirect file is kept when the server is not stopped first: a browser started cold
 * on a loaded machine reads it within seconds, two minutes leave it plenty; after that the token
 * lies on disk for nothing (it is this user's only, but the shorter the better).
 */
export const redirectFileLifetimeMs = 120_000;

export interface OpenedPage {
  /** The redirect file the opener was given. */
  readonly file: string;
  /** Removes the file and its folder (at once, or when its lifetime ends; either is enough). */
  remove(): Promise<void>;
}

/**
 * `review --open` (docs/review.md): the address carries the token, and a process's arguments are
 * readable by every user of the machine (`ps`), so the opener is given the path of a file that
 * redirects to it instead, as Jupyter's redirect file does: in a folder of its own (0700, from
 * mkdtemp), written 0600, readable by this user alone. The opener is the system's (xdg-open, open,
 * explorer) or `opener`, run with the file as its one argument, no shell; a machine without one
 * is not an error.
 */
export async function openThroughRedirectFile(
  url: string,
  options: { readonly opener?: string | undefined; readonly lifetimeMs?: number } = {},
): Promise<OpenedPage> {
  const folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-review-'));
  const file = join(folder, 'open-review.html');
  await writeFile(file, redirectPage(url), { mode: 0o600, flag: 'wx' });
  const opener =
    options.opener ?? (process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open');
  spawn(opener, [file], { detached: true, stdio: 'ignore' })
    .on('error', () => undefined)
    .unref();
  const remove = async () => {
    clearTimeout(timer);
    await rm(folder, { recursive: true, force: true });
  };
  const timer = setTimeout(() => void remove(), options.lifetimeMs ?? redirectFileLifetimeMs);
  // The file's lifetime never keeps the process alive: stopping the server removes it anyway.
  timer.unref();
  return { file, remove };
}

/** The page that sends the browser on to the review page; a link too, should refresh be off. */
function redirectPage(url: string): string {
  const address = escapeHtml(url);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${address}">
<title>bulk-disputes review</title></head>
<body><p><a href="${address}">Open the review page</a>.</p></body></html>
`;
}
