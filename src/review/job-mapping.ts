import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { MappingError } from '../mapping/load.js';
import { ReviewJobError } from './job-types.js';
import { codeOf } from '../errors/coded-error.js';

/** The mapping an import is reviewed with, and its text. */
export interface JobMapping {
  file: string;
  text: string;
}

/**
 * The mapping the import ran with: `--mapping` when given, checked against the sha256 its journal
 * records; else the file the journal recorded beside that sha256, used only while it is still there
 * and unchanged. Otherwise `--mapping` is asked for, saying why.
 */
export async function jobMapping(
  given: string | undefined,
  recorded: { file: string | undefined; sha256: string },
): Promise<JobMapping> {
  if (given !== undefined) {
    const text = await readMapping(given);
    const sha256 = sha256Of(text);
    if (sha256 !== recorded.sha256)
      throw new ReviewJobError(
        `--mapping ${given}: expected the mapping the job ran with (sha256 ${recorded.sha256}), got another (sha256 ${sha256})`,
      );
    return { file: given, text };
  }
  const ask = (why: string) =>
    new ReviewJobError(`an import is reviewed with the mapping it ran with: expected --mapping FILE, since ${why}`);
  // Journals written before the path was recorded name only the sha256.
  if (recorded.file === undefined)
    throw ask(`the journal records only its sha256 (${recorded.sha256}), not where it is`);
  let text: string;
  try {
    text = await readFile(recorded.file, 'utf8');
  } catch (error) {
    const code = codeOf(error);
    throw ask(
      code === 'ENOENT' || code === 'ENOTDIR'
        ? `the mapping recorded at ${recorded.file} is gone`
        : `the mapping recorded at ${recorded.file} cannot be read (${String(code ?? error)})`,
    );
  }
  const sha256 = sha256Of(text);
  if (sha256 !== recorded.sha256)
    throw ask(
      `the mapping recorded at ${recorded.file} has changed since the run (sha256 ${recorded.sha256} then, ${sha256} now)`,
    );
  return { file: recorded.file, text };
}

async function readMapping(file: string): Promise<string> {
  return readFile(file, 'utf8').catch((error: unknown) => {
    throw new MappingError(file, [
      {
        field: '',
        line: undefined,
        message: `expected a readable mapping file, got ${codeOf(error) ?? 'unreadable'}`,
      },
    ]);
  });
}

function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
