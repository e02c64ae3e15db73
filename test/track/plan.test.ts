import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { serviceAt } from '../../src/api/service-identity.js';
import { resolveTrackPlan, type TrackRequest } from '../../src/track/plan.js';

/** A track run resolved once into its plan (src/track/plan.ts): reads only, so no mode; the defaults and the worklist's clock. */

const request: TrackRequest = {
  sources: ['night.journal.sqlite'],
  service: { baseUrl: 'http://127.0.0.1:9/', apiKey: 'test_key_0001' },
  journalFile: 'night.track.journal.sqlite',
  statusFile: 'night.track.csv',
  worklistFile: 'night.track.worklist.csv',
  dueWithinDays: 7,
  concurrency: 8,
  maxRps: 50,
  logger: pino({ level: 'silent' }),
};

describe('a track run resolved into its plan', () => {
  it('follows the sources only, reads what moved, restarts nothing and breaks after 5 failed reads unless asked otherwise', () => {
    const plan = resolveTrackPlan(request);

    expect(plan.sources).toEqual({ files: ['night.journal.sqlite'], all: false, column: undefined });
    expect(plan.files).toEqual({
      journalFile: 'night.track.journal.sqlite',
      statusFile: 'night.track.csv',
      worklistFile: 'night.track.worklist.csv',
      htmlFile: undefined,
    });
    expect(plan.identity).toEqual(serviceAt('http://127.0.0.1:9/', 'test_key_0001'));
    expect({ full: plan.full, restart: plan.restart, serviceName: plan.serviceName }).toEqual({
      full: false,
      restart: false,
      serviceName: '',
    });
    expect(plan.pacing).toMatchObject({ concurrency: 8, maxRps: 50, breakerThreshold: 5 });
    expect(plan).not.toHaveProperty('mode');
  });

  it('counts days left from --as-of when given, else from the clock when it is asked', async () => {
    const asOf = Date.parse('2026-11-28T08:00:00Z');

    const given = resolveTrackPlan({ ...request, asOf, dueWithinDays: 3 });
    const now = resolveTrackPlan(request);
    const resolvedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const askedAt = now.worklist.asOf();

    expect(given.worklist.dueWithinDays).toBe(3);
    expect(given.worklist.asOf()).toBe(asOf);
    expect(askedAt).toBeGreaterThanOrEqual(resolvedAt + 20);
  });

  it('takes every case, a full read, a restart and the page when asked', () => {
    const plan = resolveTrackPlan({
      ...request,
      sources: [],
      all: true,
      full: true,
      restart: true,
      htmlFile: 'all.track.html',
      serviceName: 'http://127.0.0.1:9 (test key)',
    });

    expect(plan.sources).toEqual({ files: [], all: true, column: undefined });
    expect({ full: plan.full, restart: plan.restart, serviceName: plan.serviceName }).toEqual({
      full: true,
      restart: true,
      serviceName: 'http://127.0.0.1:9 (test key)',
    });
    expect(plan.files.htmlFile).toBe('all.track.html');
  });
});
