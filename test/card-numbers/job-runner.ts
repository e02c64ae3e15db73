import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { expect } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { runBin } from '../helpers/cli.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox-process.js';
import { v1Case } from '../migrate/fixtures.js';
import { root, type CardNumbers, CardNumbers as Numbers } from './card-export.js';

const apiKey = 'test_card_numbers_0001';

/**
 * Every job of the built CLI as a process against one sandbox process, its data in the folder;
 * each job's stdout and stderr (JSON logs, debug and up) kept in the folder's `logs/`.
 */
export class JobRunner {
  readonly mapping = join(root, 'mappings/generic.yaml');
  readonly evidenceDir = join(root, 'samples/evidence');
  /** The columns of an export of cases that carry free text, the default ones too. */
  readonly caseColumns = [
    'case_id,claim_id,status,merchant.name,cardholder.name,transaction.arn,custom_fields,custom_fields.note',
    'issuer_evidence,issuer_evidence.cardholder_explanation,issuer_evidence.explanation,issuer_evidence.cardholder_message',
    'issuer_evidence.refund.description',
  ].join(',');

  private constructor(
    private readonly folder: string,
    private readonly sandbox: SandboxProcess,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  static async start(folder: string): Promise<JobRunner> {
    await mkdir(join(folder, 'logs'));
    const sandbox = await startSandboxProcess(['--db', join(folder, 'sandbox.db'), '--api-key', apiKey]);
    return new JobRunner(folder, sandbox, { CLAIMS_BASE_URL: sandbox.url, CLAIMS_API_KEY: apiKey });
  }

  /** Runs a job; its exit code is 0 or 1 (done, or done with rows to look at), never a crash or usage error. */
  async run(name: string, argv: string[]): Promise<void> {
    const run = await runBin(['--log-level', 'debug', '--log-format', 'json', ...argv], this.env, { cwd: this.folder });
    await writeFile(join(this.folder, 'logs', `${name}.stdout`), run.stdout);
    await writeFile(join(this.folder, 'logs', `${name}.stderr`), run.stderr);
    expect([name, run.exitCode], run.stderr).toSatisfy(([, code]) => code === 0 || code === 1);
  }

  /** Version 1 cases, a card number typed into each free-text field; the numbers. */
  async seedV1Cases(count: number): Promise<string[]> {
    const numbers = new Numbers(5_000);
    const client = new ClaimsClient({ baseUrl: this.env.CLAIMS_BASE_URL ?? '', apiKey, retry: { maxAttempts: 1 } });
    try {
      for (let index = 0; index < count; index++) {
        const typed = (network: number) => `la carte ${numbers.next(index + network)} a été débitée deux fois`;
        await client.v1.cases.create({
          ...v1Case(`v1-card-${String(index)}`, `REF-${String(index)}`),
          custom_fields: { dispute_ref: `REF-${String(index)}`, note: typed(0) },
          issuer_evidence: {
            explanation: typed(1),
            cardholder_message: typed(2),
            refund: { description: typed(3) },
          },
        });
      }
    } finally {
      await client.close();
    }
    return numbers.all;
  }

  /** A list of claim ids, a column of notes with card numbers beside them: a withdraw's or a track's source. */
  async writeIdList(file: string, numbers: CardNumbers): Promise<string> {
    const ids = ['CLM-D-2026-0103', 'CLM-D-2026-0104'];
    await writeFile(file, stringify([['claim_id', 'note'], ...ids.map((id, index) => [id, numbers.sentence(index)])]));
    return file;
  }

  async stopSandbox(): Promise<void> {
    const exited = new Promise<void>((resolve) =>
      this.sandbox.child.once('exit', () => {
        resolve();
      }),
    );
    this.sandbox.child.kill('SIGTERM');
    await exited;
    await writeFile(join(this.folder, 'logs', 'sandbox.output'), this.sandbox.output());
  }
}
