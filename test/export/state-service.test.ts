import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ClaimsClient } from '../../src/api/client/index.js';
import { runBin } from '../helpers/cli.js';
import { fraudClaim } from '../helpers/sandbox.js';
import { startServiceBehindDoor } from '../helpers/service-doors.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/**
 * `export --state`: a bookmark is an event id of one service. Another service's events
 * are not ordered after it, so exporting "what is newer" there would skip them: refused before
 * the first page is read. Real processes; requests counted at each service's door.
 */

const testKey = 'test_export_rehearsal_001';
const liveKey = 'live_export_key_00000001';

async function createEvents(client: ClaimsClient, prefix: string, claims: number): Promise<void> {
  for (let claim = 1; claim <= claims; claim++)
    await client.claims.createWithCases(fraudClaim(`${prefix}-${claim}`, 2));
}

async function exportIn(folder: string, extra: readonly string[], env: NodeJS.ProcessEnv) {
  return runBin(
    ['export', 'events', '--out', 'events.csv', '--state', 'events.state.json', '--log-level', 'warn', ...extra],
    env,
    { cwd: folder },
  );
}

async function rowsOf(file: string): Promise<number> {
  const rows: string[][] = parse(await readFile(file, 'utf8'));
  return rows.length - 1;
}

describe('export --state belongs to one service', () => {
  it(
    "another service's bookmark: exit 2 before a page is read; --restart exports everything and bookmarks the new service",
    { timeout: 60_000 },
    async () => {
      const folder = await temporaryFolder('bulk-disputes-export-service-');
      const rehearsal = await startServiceBehindDoor([testKey]);
      const production = await startServiceBehindDoor([liveKey]);
      await createEvents(rehearsal.client(testKey), 'R', 3);
      await createEvents(production.client(liveKey), 'P', 2);

      const first = await exportIn(folder, [], { CLAIMS_BASE_URL: rehearsal.url, CLAIMS_API_KEY: testKey });
      expect(first.exitCode, first.stderr).toBe(0);
      expect(await rowsOf(join(folder, 'events.csv'))).toBe(6);
      const state = JSON.parse(await readFile(join(folder, 'events.state.json'), 'utf8')) as Record<string, unknown>;
      expect(state.service).toEqual({ kind: 'url', baseUrl: rehearsal.url, environment: 'test' });
      expect(JSON.stringify(state)).not.toContain(testKey);

      const refused = await exportIn(folder, [], { CLAIMS_BASE_URL: production.url, CLAIMS_API_KEY: liveKey });
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(
        `expected a bookmark taken from ${production.url} (live key), got one taken from ${rehearsal.url} (test key)`,
      );
      expect(refused.stderr).toMatch(/--state FILE of its own.*--restart/);
      expect(production.door.total()).toBe(0);
      // The file was left as it was.
      expect(JSON.parse(await readFile(join(folder, 'events.state.json'), 'utf8'))).toEqual(state);

      const restarted = await exportIn(folder, ['--restart'], {
        CLAIMS_BASE_URL: production.url,
        CLAIMS_API_KEY: liveKey,
      });
      expect(restarted.exitCode, restarted.stderr).toBe(0);
      expect(await rowsOf(join(folder, 'events.csv'))).toBe(4);
      const moved = JSON.parse(await readFile(join(folder, 'events.state.json'), 'utf8')) as Record<string, unknown>;
      expect(moved.service).toEqual({ kind: 'url', baseUrl: production.url, environment: 'live' });

      // Incremental again, on its own service: only what is new.
      await createEvents(production.client(liveKey), 'P-later', 1);
      const next = await exportIn(folder, [], { CLAIMS_BASE_URL: production.url, CLAIMS_API_KEY: liveKey });
      expect(next.exitCode, next.stderr).toBe(0);
      expect(await rowsOf(join(folder, 'events.csv'))).toBe(2);
    },
  );

  it(
    'a state file written before services were recorded: taken once for the service it is used with, then recorded',
    { timeout: 60_000 },
    async () => {
      const folder = await temporaryFolder('bulk-disputes-export-service-');
      const production = await startServiceBehindDoor([liveKey]);
      const other = await startServiceBehindDoor([liveKey]);
      await createEvents(production.client(liveKey), 'P', 2);
      const env = { CLAIMS_BASE_URL: production.url, CLAIMS_API_KEY: liveKey };
      expect((await exportIn(folder, [], env)).exitCode).toBe(0);
      const stateFile = join(folder, 'events.state.json');
      const { service: _recorded, ...before } = JSON.parse(await readFile(stateFile, 'utf8')) as Record<
        string,
        unknown
      >;
      await writeFile(stateFile, JSON.stringify(before));

      await createEvents(production.client(liveKey), 'P-later', 1);
      const accepted = await exportIn(folder, [], env);
      expect(accepted.exitCode, accepted.stderr).toBe(0);
      expect(accepted.stderr).toContain('records no service (written before bookmarks recorded one)');
      expect(await rowsOf(join(folder, 'events.csv'))).toBe(2);
      expect((JSON.parse(await readFile(stateFile, 'utf8')) as Record<string, unknown>).service).toEqual({
        kind: 'url',
        baseUrl: production.url,
        environment: 'live',
      });

      const elsewhere = await exportIn(folder, [], { ...env, CLAIMS_BASE_URL: other.url });
      expect(elsewhere.exitCode, elsewhere.stderr).toBe(2);
      expect(other.door.total()).toBe(0);
    },
  );
});
