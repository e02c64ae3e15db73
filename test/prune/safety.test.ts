import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { cp, lstat, mkdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { cliBin } from '../helpers/sandbox-process.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';
import { exportColumns, mappingWithBillingAddress, plantedPerson, type ExportRow } from './planted-export.js';
import { filesUnder, plantedValuesIn } from './planted-search.js';

/**
 * What prune never does (docs/data.md, "Retention"): touch a file it did not recognise, follow a
 * link, act on a job still running or still to send, or change anything once it meets a file it
 * cannot read; and a prune killed midway leaves every job whole or thinned.
 */

interface Night {
  dir: string;
  inbox: string;
  planted: string[];
  journal: string;
  results: string;
}

/**
 * A night whose rows all fail their mapping (no amount): staged with every cardholder value, no
 * case at the service, so `--keep-personal-data 0d` makes it due at once.
 */
async function invalidNight(top: string, name: string, rows = 6): Promise<Night> {
  const dir = join(top, 'job');
  const inbox = join(top, 'inbox');
  await mkdir(dir, { recursive: true });
  await mkdir(inbox, { recursive: true });
  const planted: string[] = [];
  const records: ExportRow[] = Array.from({ length: rows }, (_, index) => {
    const person = plantedPerson(`${name}${String.fromCharCode(97 + (index % 26))}${String(index)}`, index + 1);
    planted.push(person.name, person.email, person.line1);
    return {
      dispute_ref: `${name}-${String(index)}`,
      transaction_ref: 'T1',
      reason_code: 'FR',
      dispute_date: '2026-11-20',
      cardholder_name: person.name,
      cardholder_email: person.email,
      billing_line1: person.line1,
      billing_city: person.city,
      billing_postal_code: 'ZZ1 1ZZ',
      billing_country: 'GB',
      card_last4: '4242',
      card_network: 'VISA',
      card_type: 'Credit',
      card_expiry: '09/30',
      card_active: 'no',
      fraud_reported: 'yes',
      merchant_name: 'Merchant',
      mcc: '5732',
      transaction_date: '2026-10-20',
      transaction_amount: '10.00',
      disputed_amount: 'no amount',
      currency: 'GBP',
      arn: `74492156300000${String(index).padStart(9, '0')}`,
      cardholder_statement: '',
      receipt_file: '',
      correspondence_files: '',
    };
  });
  const input = join(inbox, `${name}.csv`);
  const mapping = join(inbox, 'mapping.yaml');
  await writeFile(input, stringify(records, { header: true, columns: [...exportColumns] }));
  await writeFile(mapping, await mappingWithBillingAddress());
  const journal = join(dir, `${name}.journal.sqlite`);
  const results = join(dir, `${name}.results.csv`);
  const run = await runBin(
    [
      'import',
      input,
      '--mapping',
      mapping,
      '--evidence-dir',
      inbox,
      '--journal',
      journal,
      '--results',
      results,
      '--sandbox-db',
      join(inbox, 'sandbox.db'),
      '--sandbox-clock',
      '2026-11-21T12:00:00Z',
      '--log-level',
      'warn',
    ],
    {},
    { cwd: dir },
  );
  expect(run.exitCode, run.stderr).toBe(1);
  return { dir, inbox, planted, journal, results };
}

async function prune(dir: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runBin(['prune', '.', ...args], env, { cwd: dir });
}

async function snapshot(dir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const file of await filesUnder(dir)) {
    const bytes = await readFile(file);
    if (file.endsWith('-shm') || (file.endsWith('-wal') && bytes.length === 0)) continue;
    found.set(relative(dir, file), createHash('sha256').update(bytes).digest('hex'));
  }
  return found;
}

describe('prune: its policy', () => {
  it('refuses a period it cannot read, records kept shorter than personal data, and --as-of outside a dry run: exit 2, nothing changed', async () => {
    const night = await invalidNight(await temporaryFolder('prune-policy-'), 'policy');
    const before = await snapshot(night.dir);
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [
        ['--keep-personal-data', '90'],
        {},
        /--keep-personal-data: expected a whole number and a unit \(d, w, m or y\), such as 90d or 7y, got \\?"90\\?"/,
      ],
      [
        ['--keep-personal-data', '90d', '--keep-records', '30d'],
        {},
        /--keep-records: expected at least --keep-personal-data \(90d\).*got 30d/,
      ],
      [
        [],
        { BULK_DISPUTES_KEEP_RECORDS: 'seven years' },
        /BULK_DISPUTES_KEEP_RECORDS: expected a whole number and a unit/,
      ],
      [['--as-of', '2027-01-01'], {}, /--as-of: expected with --dry-run/],
      [['--dry-run', '--as-of', 'next spring'], {}, /--as-of: expected a date/],
    ];
    for (const [args, env, message] of cases) {
      const run = await prune(night.dir, args, env);
      expect(run.exitCode, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await snapshot(night.dir)).toEqual(before);
  });

  it('takes the policy from the environment when no flag gives it', async () => {
    const night = await invalidNight(await temporaryFolder('prune-env-'), 'env');
    const kept = await prune(night.dir, ['--dry-run'], { BULK_DISPUTES_KEEP_PERSONAL_DATA: '400d' });
    expect(kept.stdout).toMatch(
      /^kept: env\.journal\.sqlite \(import\): last run \d{4}-\d\d-\d\d; personal data kept until/m,
    );
    const due = await prune(night.dir, ['--dry-run'], { BULK_DISPUTES_KEEP_PERSONAL_DATA: '0d' });
    expect(due.stdout).toMatch(/^would thin: env\.journal\.sqlite/m);
    expect(due.stderr).toMatch(/^prune \(0d personal data, 7y records\)/m);
  });
});

describe('prune: what it never touches', () => {
  it("never follows a link, and leaves a file at a job's name that holds something else", async () => {
    const top = await temporaryFolder('prune-links-');
    const night = await invalidNight(top, 'links');
    // The results file replaced by a link to a file of someone else's, and a link to a folder.
    const elsewhere = join(top, 'elsewhere.csv');
    await writeFile(elsewhere, 'line,claim_key\n1,not ours\n');
    await writeFile(night.results.replace('links.results.csv', 'notes.txt'), 'kept\n');
    await rm(night.results);
    await symlink(elsewhere, night.results);
    await symlink(top, join(night.dir, 'up'));
    // The payloads name a file the journal recorded, now holding something else.
    const journal = new Database(night.journal);
    const written = JSON.parse(
      journal.prepare("SELECT value FROM meta WHERE key = 'written_files'").pluck().get() as string,
    ) as unknown[];
    const impostor = join(night.dir, 'links.payloads.jsonl');
    journal
      .prepare("UPDATE meta SET value = ? WHERE key = 'written_files'")
      .run(JSON.stringify([...written, { path: impostor, role: 'payloads' }]));
    journal.close();
    await writeFile(impostor, 'a spreadsheet someone saved here\n');

    const run = await prune(night.dir, ['--keep-personal-data', '0d']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^thinned: links\.journal\.sqlite/m);
    expect(run.stdout).toMatch(/^passed over: links\.results\.csv \(a symbolic link: never followed\)$/m);
    expect(run.stdout).toMatch(/^passed over: up \(a symbolic link: never followed\)$/m);
    expect(run.stdout).toMatch(
      /^left alone: links\.payloads\.jsonl \(at a name of a job's payloads, but it holds something else\)$/m,
    );
    expect((await lstat(night.results)).isSymbolicLink()).toBe(true);
    expect(await readlink(night.results)).toBe(elsewhere);
    expect(await readFile(elsewhere, 'utf8')).toBe('line,claim_key\n1,not ours\n');
    expect(await readFile(impostor, 'utf8')).toBe('a spreadsheet someone saved here\n');
    expect(await readFile(join(night.dir, 'notes.txt'), 'utf8')).toBe('kept\n');
    expect(await plantedValuesIn({ dir: night.dir, planted: night.planted })).toEqual([]);
  });

  it('refuses a link planted at the prune record before it changes anything', async () => {
    const top = await temporaryFolder('prune-record-link-');
    const night = await invalidNight(top, 'recorded');
    const target = join(top, 'bashrc');
    await writeFile(target, 'export PATH=/usr/bin\n');
    await symlink(target, join(night.dir, 'prune-record.jsonl'));
    const before = await snapshot(night.dir);
    const run = await prune(night.dir, ['--keep-personal-data', '0d']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/OUTPUT_IS_A_LINK/);
    expect(await snapshot(night.dir)).toEqual(before);
    expect(await readFile(target, 'utf8')).toBe('export PATH=/usr/bin\n');
  });

  it('stops at a journal it cannot read, exit 2, having changed nothing', async () => {
    const night = await invalidNight(await temporaryFolder('prune-damaged-'), 'whole');
    // SQLite's header, then nothing a database holds.
    await writeFile(
      join(night.dir, 'damaged.journal.sqlite'),
      Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4000, 7)]),
    );
    const before = await snapshot(night.dir);
    const run = await prune(night.dir, ['--keep-personal-data', '0d']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(
      /damaged\.journal\.sqlite: expected a SQLite database prune can read, got a damaged one: prune stopped before changing anything/,
    );
    expect(await snapshot(night.dir)).toEqual(before);
    await expect(stat(join(night.dir, 'prune-record.jsonl'))).rejects.toThrow(/ENOENT/);
  });
});

describe('prune: jobs whose work is not over', () => {
  it('leaves a journal a run holds, and one with claims still to send, and says why', async () => {
    const top = await temporaryFolder('prune-running-');
    const held = await invalidNight(top, 'held');
    // Valid rows, sent to a service that never answers: staged, every claim still to send.
    const pendingInput = join(held.inbox, 'pending.csv');
    const rows = (await readFile(join(held.inbox, 'held.csv'), 'utf8')).replaceAll(',no amount,', ',10.00,');
    await writeFile(pendingInput, rows);
    const pending = await runBin(
      [
        'import',
        pendingInput,
        '--mapping',
        join(held.inbox, 'mapping.yaml'),
        '--evidence-dir',
        held.inbox,
        '--journal',
        join(held.dir, 'pending.journal.sqlite'),
        '--base-url',
        'http://127.0.0.1:9',
        '--log-level',
        'warn',
      ],
      { CLAIMS_API_KEY: 'test_prune_pending' },
      { cwd: held.dir },
    );
    expect(pending.exitCode, pending.stderr).toBe(3);
    // Another process holding the first journal as a run does (src/journal/open.ts).
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))}); const d = new D(${JSON.stringify(held.journal)}); d.pragma('locking_mode = EXCLUSIVE'); d.exec('BEGIN IMMEDIATE; COMMIT;'); console.log('held'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve) => {
        holder.stdout.once('data', () => {
          resolve();
        });
      });
      const before = await snapshot(held.dir);
      const run = await prune(held.dir, ['--keep-personal-data', '0d']);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^left alone: held\.journal\.sqlite \(in use: another process holds it\)$/m);
      expect(run.stdout).toMatch(
        /^left alone: pending\.journal\.sqlite \(import\): 6 claims still to send: run the import again$/m,
      );
      const after = await snapshot(held.dir);
      after.delete('prune-record.jsonl');
      expect(after).toEqual(before);
    } finally {
      holder.kill('SIGKILL');
    }
    // Once the run is gone, the night is thinned.
    const again = await prune(held.dir, ['--keep-personal-data', '0d']);
    expect(again.stdout).toMatch(/^thinned: held\.journal\.sqlite/m);
  });
});

describe('prune killed midway', () => {
  it('leaves each job whole or thinned, and the next prune finishes it', async () => {
    const top = await temporaryFolder('prune-killed-');
    const night = await invalidNight(top, 'killed', 8000);
    const whole = await snapshot(night.dir);
    const sampled = night.planted.filter((_, index) => index % 600 === 0);
    expect(new Set((await plantedValuesIn({ dir: night.dir, planted: sampled })).map(([, value]) => value)).size).toBe(
      sampled.length,
    );
    const states = new Set<string>();
    // Kills spread over the run: before it opens the journal, in its transaction, in the rewrite, after.
    for (const delay of [40, 150, 300, 450, 600, 800, 1100, 1600, 4000]) {
      const copy = join(top, `copy-${String(delay)}`);
      await cp(night.dir, copy, { recursive: true });
      const child = spawn(process.execPath, [cliBin, 'prune', '.', '--keep-personal-data', '0d'], {
        cwd: copy,
        stdio: 'ignore',
      });
      // Listened for at once: a prune done before the kill has exited already.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      await exited;
      const journal = new Database(join(copy, 'killed.journal.sqlite'), { readonly: true });
      try {
        expect(journal.pragma('integrity_check', { simple: true })).toBe('ok');
        const thinned = journal.prepare("SELECT 1 FROM meta WHERE key = 'thinned'").get() !== undefined;
        const withCells = journal.prepare("SELECT count(*) FROM rows WHERE source <> '[]'").pluck().get() as number;
        // One transaction: every row's cells, or none of them.
        expect(withCells, `killed after ${String(delay)} ms`).toBe(thinned ? 0 : 8000);
        states.add(thinned ? 'thinned' : 'whole');
      } finally {
        journal.close();
      }
      if (!states.has('thinned')) {
        // Still whole: every byte of the job as it was (SQLite's index and an empty log aside).
        const seen = await snapshot(copy);
        seen.delete('prune-record.jsonl');
        expect(seen.get('killed.journal.sqlite')).toBe(whole.get('killed.journal.sqlite'));
      }
      const after = await prune(copy, ['--keep-personal-data', '0d']);
      expect(after.exitCode, after.stderr).toBe(0);
      expect(after.stdout).toMatch(/^(thinned|finished|kept): killed\.journal\.sqlite/m);
      // A value of every 200th row, each looked for in every byte (all 24,000 would take minutes).
      expect(await plantedValuesIn({ dir: copy, planted: sampled })).toEqual([]);
    }
    // The first kills land before the transaction commits, the last after it.
    expect([...states].sort()).toEqual(['thinned', 'whole']);
  }, 180_000);
});
