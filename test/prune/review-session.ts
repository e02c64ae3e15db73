import { execFile } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { cliBin } from '../helpers/sandbox-process.js';
import { startServing, type CommandRun } from './cli-processes.js';

/**
 * `bulk-disputes review JOURNAL` as a person uses it, driven over HTTP as a script may
 * (docs/review.md, "Scripts": the printed token as a bearer, writes from the page's origin): one
 * row edited, the fix file saved, the server stopped (Ctrl-C), then the feed-back command the page
 * printed run as printed.
 */

interface RowsPage {
  rows: { line: number; claimKey?: string; cells: Record<string, string> }[];
}

interface EditAnswer {
  check: { ok: boolean };
  siblings: { check: { ok: boolean } }[];
}

export interface SavedFix {
  file: string;
  journal: string;
  command: string;
}

export async function reviewAndSaveFix(
  journal: string,
  edit: { claimKey: string; cells: (row: Readonly<Record<string, string>>) => Record<string, string> },
  options: { cwd: string; env: Record<string, string> },
): Promise<SavedFix> {
  const review = await startServing(['review', journal], /review: (http:\/\/[^/\s]+)\/\?token=(\S+)/, options);
  try {
    const [, origin = '', token = ''] = review.printed;
    const api = async (method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown) => {
      const response = await request(`${origin}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(method === 'GET' ? {} : { origin }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.body.text();
      if (response.statusCode !== 200)
        throw new Error(`test: review ${method} ${path}: ${String(response.statusCode)} ${text}`);
      return JSON.parse(text) as unknown;
    };
    const { rows } = (await api('GET', '/api/rows')) as RowsPage;
    const claimRows = rows.filter((candidate) => candidate.cells.dispute_ref === edit.claimKey);
    if (claimRows.length === 0) throw new Error(`test: review lists no row of ${edit.claimKey} to fix`);
    // Rows of a claim are checked together: the last edit's answer tells of them all.
    let saved: EditAnswer | undefined;
    for (const row of claimRows)
      saved = (await api('PUT', `/api/rows/${String(row.line)}`, { cells: edit.cells(row.cells) })) as EditAnswer;
    if (saved === undefined || !saved.check.ok || saved.siblings.some((sibling) => !sibling.check.ok))
      throw new Error(`test: the review's check refused the edit: ${JSON.stringify(saved)}`);
    return (await api('POST', '/api/save')) as SavedFix;
  } finally {
    await review.stop();
  }
}

/**
 * The printed command run by a shell, `bulk-disputes` being the built CLI: a command for people
 * is checked as one, quoting included.
 */
export async function runPrintedCommand(
  command: string,
  options: { cwd: string; env: Record<string, string>; toolsDir: string },
): Promise<CommandRun> {
  const shim = join(options.toolsDir, 'bulk-disputes');
  await writeFile(shim, `#!/bin/sh\nexec '${process.execPath}' '${cliBin}' "$@"\n`);
  await chmod(shim, 0o755);
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', command],
      { cwd: options.cwd, env: { ...options.env, PATH: `${options.toolsDir}:${process.env.PATH ?? ''}` } },
      (error, stdout, stderr) => {
        resolve({ exitCode: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}
