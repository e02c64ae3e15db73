import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { serviceAt, ServiceMismatchError } from '../../src/api/service-identity.js';
import { defaultColumns } from '../../src/export/columns.js';
import { resolveExportPlan, type ExportRequest } from '../../src/export/plan.js';
import type { ExportState } from '../../src/export/state.js';

/**
 * An export's plan: the bookmark it starts after, decided once from the state file as read, the
 * service it reads and `--restart`, before the first page is read.
 */

const here = { baseUrl: 'http://127.0.0.1:4010', apiKey: 'test_export_plan_0001' };
const elsewhere = serviceAt('http://claims.example.com', 'test_export_plan_0001');
const stateFile = '/tmp/events.state.json';

/** A logger whose JSON lines are kept, to read what the plan said. */
function recordingLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: pino({ level: 'info', base: undefined, timestamp: false }, stream), lines };
}

function request(recorded: ExportState | undefined, extra: Partial<ExportRequest> = {}) {
  const { logger, lines } = recordingLogger();
  const asked: ExportRequest = {
    resource: 'events',
    target: { file: '/tmp/events.csv' },
    state: { file: stateFile, recorded },
    service: here,
    logger,
    ...extra,
  };
  return { asked, lines };
}

const taken = (service: ExportState['service'], bookmark: string | null = 'evt_100'): ExportState => ({
  resource: 'events',
  bookmark,
  updated: '2026-11-20T00:00:00.000Z',
  service,
});

describe('resolveExportPlan', () => {
  it('without --state: no bookmark, the default columns, the pace --max-rps alone', () => {
    const { asked, lines } = request(undefined, { state: undefined, maxRps: 7 });
    const plan = resolveExportPlan(asked);
    expect(plan.bookmark).toBeUndefined();
    expect(plan.columns).toEqual(defaultColumns.events);
    expect(plan.pacing).toEqual({ maxRps: 7 });
    expect(plan.serviceIdentity).toEqual(serviceAt(here.baseUrl, here.apiKey));
    expect(lines).toEqual([]);
  });

  it("a first run's state file (none yet): the file kept, everything exported", () => {
    const { asked, lines } = request(undefined, { columns: ['event_id'] });
    const plan = resolveExportPlan(asked);
    expect(plan.bookmark).toEqual({ file: stateFile, after: undefined });
    expect(plan.columns).toEqual(['event_id']);
    expect(lines).toEqual([]);
  });

  it("this service's bookmark: exported after it, nothing said", () => {
    const { asked, lines } = request(taken(serviceAt(here.baseUrl, here.apiKey)));
    expect(resolveExportPlan(asked).bookmark).toEqual({ file: stateFile, after: 'evt_100' });
    expect(lines).toEqual([]);
  });

  it("another service's bookmark: refused before a page is read, naming both services", () => {
    const { asked } = request(taken(elsewhere));
    expect(() => resolveExportPlan(asked)).toThrow(ServiceMismatchError);
    expect(() => resolveExportPlan(asked)).toThrow(
      /expected a bookmark taken from http:\/\/127\.0\.0\.1:4010.*got one taken from http:\/\/claims\.example\.com/,
    );
  });

  it("--restart drops another service's bookmark, said once with the state file", () => {
    const { asked, lines } = request(taken(elsewhere), { restart: true });
    expect(resolveExportPlan(asked).bookmark).toEqual({ file: stateFile, after: undefined });
    expect(lines).toEqual([
      {
        level: 40,
        state: stateFile,
        msg: '--restart: the bookmark is dropped; exporting everything, then a new bookmark for this service',
      },
    ]);
  });

  it("a bookmark of nothing yet skips nothing, whichever service's", () => {
    const { asked, lines } = request(taken(elsewhere, null));
    expect(resolveExportPlan(asked).bookmark).toEqual({ file: stateFile, after: undefined });
    expect(lines).toEqual([]);
  });

  it('a bookmark recording no service: taken as this one, said with the state file and the service', () => {
    const { asked, lines } = request(taken(undefined));
    expect(resolveExportPlan(asked).bookmark).toEqual({ file: stateFile, after: 'evt_100' });
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0] ?? {})).toEqual(['level', 'state', 'service', 'msg']);
    expect(lines[0]).toMatchObject({ level: 40, state: stateFile, service: 'http://127.0.0.1:4010 (test key)' });
  });
});
