import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceAt } from '../../src/api/service-identity.js';
import { withdrawJournalFormat } from '../../src/job-files/withdraw/journal.js';
import { resolveWithdrawPlan, type WithdrawRequest } from '../../src/withdraw/plan.js';

/** A withdraw resolved once into its plan (src/withdraw/plan.ts): the defaults, the mode, the fingerprint of the real sources. */

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map(async (dir) => rm(dir, { recursive: true, force: true })));
});

async function sources(...texts: string[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'withdraw-plan-'));
  dirs.push(dir);
  return Promise.all(
    texts.map(async (text, index) => {
      const file = join(dir, `source-${String(index)}.csv`);
      await writeFile(file, text);
      return file;
    }),
  );
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function requestWith(overrides: Partial<WithdrawRequest> = {}): Promise<WithdrawRequest> {
  return {
    sources: await sources('claim_id\nclm_1\n', 'case_id\ncas_2\n'),
    service: { baseUrl: 'http://127.0.0.1:9/', apiKey: 'test_key_0001' },
    journalFile: 'w.journal.sqlite',
    resultsFile: 'w.results.csv',
    concurrency: 4,
    logger: pino({ level: 'silent' }),
    ...overrides,
  };
}

describe('a withdraw resolved into its plan', () => {
  it('takes whole claims, sends, restarts nothing and breaks after 5 failures unless asked otherwise', async () => {
    const request = await requestWith();

    const plan = await resolveWithdrawPlan(request);

    expect(plan.mode).toEqual({ kind: 'send', confirm: undefined });
    expect(plan.withdrawals).toEqual({ scope: 'claim', deleteUnfiled: false });
    expect(plan.sources).toEqual({ files: request.sources, filter: {} });
    expect(plan.files).toEqual({ journalFile: 'w.journal.sqlite', resultsFile: 'w.results.csv' });
    expect(plan.identity).toEqual(serviceAt('http://127.0.0.1:9/', 'test_key_0001'));
    expect(plan.restart).toBe(false);
    expect({ ...plan.pacing, stopRequested: plan.pacing.stopRequested() }).toEqual({
      concurrency: 4,
      maxRps: undefined,
      breakerThreshold: 5,
      stopRequested: false,
    });
  });

  it('ties the journal to the sources’ bytes, in order, and to the flags that choose what is taken back', async () => {
    const files = await sources('claim_id\nclm_1\n', 'case_id\ncas_2\n');
    const request = await requestWith({
      sources: files,
      scope: 'case',
      deleteUnfiled: true,
      filter: { outcomes: ['filed'], claimKeys: ['K1'], column: 'id' },
    });

    const plan = await resolveWithdrawPlan(request);

    expect(plan.fingerprint).toEqual({
      format: withdrawJournalFormat,
      sources: [sha256('claim_id\nclm_1\n'), sha256('case_id\ncas_2\n')],
      scope: 'case',
      deleteUnfiled: true,
      outcomes: ['filed'],
      claimKeys: ['K1'],
      column: 'id',
      dryRun: false,
    });
    const reversed = await resolveWithdrawPlan({ ...request, sources: [...files].reverse() });
    expect(reversed.fingerprint.sources).toEqual([sha256('case_id\ncas_2\n'), sha256('claim_id\nclm_1\n')]);
  });

  it('a dry run is the check mode: no confirmation asked, and a fingerprint of its own', async () => {
    const asked: unknown[] = [];
    const confirm = async (preview: unknown) => {
      asked.push(preview);
      return Promise.resolve(true);
    };
    const request = await requestWith({ confirm });

    const live = await resolveWithdrawPlan(request);
    const dry = await resolveWithdrawPlan({ ...request, dryRun: true });

    expect(live.mode).toEqual({ kind: 'send', confirm });
    expect(dry.mode).toEqual({ kind: 'check' });
    expect(dry.fingerprint).toEqual({ ...live.fingerprint, dryRun: true });
    expect(asked).toEqual([]);
  });

  it('a source that cannot be read refuses the plan, naming it', async () => {
    const request = await requestWith({ sources: [join(tmpdir(), 'withdraw-plan-no-such-source.csv')] });

    await expect(resolveWithdrawPlan(request)).rejects.toMatchObject({
      code: 'ENOENT',
      message: expect.stringContaining('withdraw-plan-no-such-source.csv') as string,
    });
  });
});
