import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it, onTestFinished } from 'vitest';
import { startPushgateway } from '../helpers/pushgateway.js';
import { runBin } from '../import/e2e-fixtures.js';
import { pollUntil, startPrometheus, type Alert } from './prometheus.js';

/**
 * BulkDisputesPruneOverdue on what a real prune pushes (docs/monitoring.md): the built CLI prunes
 * with a 0d policy and pushes to a real Pushgateway, a real Prometheus scrapes it with the shipped
 * rules, and the alert fires for the prune's group, while BulkDisputesNoSuccess fires for a failed
 * import beside it and never for the prune. Only the waits are shortened in the rules loaded: every
 * `for:` to `0s`, and the 26 hours' floor of both alerts to 0, so that a run a second ago is late.
 */

const shippedRules = fileURLToPath(new URL('../../monitoring/bulk-disputes-rules.yml', import.meta.url));

function withoutWaits(rules: string): string {
  return rules.replace(/^(\s*for: ).+$/gm, '$10s').replaceAll('26 * 3600)', '0)');
}

const named = (alerts: readonly Alert[], name: string, state = 'firing') =>
  alerts.filter((alert) => alert.labels.alertname === name && alert.state === state);

it('fires for the prune group and leaves BulkDisputesNoSuccess to the other jobs', { timeout: 60_000 }, async () => {
  const shipped = await readFile(shippedRules, 'utf8');
  const rules = withoutWaits(shipped);
  const [shippedLines, loadedLines] = [shipped.split('\n'), rules.split('\n')];
  expect(loadedLines).toHaveLength(shippedLines.length);
  const changed = shippedLines.flatMap((line, index) =>
    line === loadedLines[index] ? [] : [[line, loadedLines[index] ?? '']],
  );
  // Six `for:` lines and the two floors, nothing else.
  expect(changed).toHaveLength(8);
  for (const [before, after] of changed)
    if (/^\s+for: /.test(before ?? '')) expect(after).toMatch(/^\s+for: 0s$/);
    else expect([before, after]).toEqual([before, before?.replace('26 * 3600)', '0)')]);

  const gateway = await startPushgateway();
  const prometheus = await startPrometheus({ gatewayUrl: gateway.url, rules });
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-prune-overdue-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));

  const prune = await runBin(
    ['prune', dir, '--keep-personal-data', '0d', '--metrics-push', gateway.url, '--log-level', 'warn'],
    {},
    { cwd: dir },
  );
  expect(prune.exitCode, prune.stderr).toBe(0);
  // Exit 2, refused before anything ran: a group with a run and no success, of another job.
  const failed = await runBin(
    ['import', 'missing.csv', '--mapping', 'missing.yaml', '--metrics-push', gateway.url],
    {},
    { cwd: dir },
  );
  expect(failed.exitCode, failed.stderr).toBe(2);

  const alerts = await pollUntil('BulkDisputesPruneOverdue and BulkDisputesNoSuccess firing', 30_000, async () => {
    const now = await prometheus.alerts();
    return named(now, 'BulkDisputesPruneOverdue').length > 0 && named(now, 'BulkDisputesNoSuccess').length > 0
      ? now
      : { lastSeen: `${JSON.stringify(now)}\nPrometheus's log:\n${prometheus.logTail()}` };
  });
  expect(named(alerts, 'BulkDisputesPruneOverdue').map((alert) => alert.labels)).toEqual([
    { alertname: 'BulkDisputesPruneOverdue', job: 'prune', environment: 'test', severity: 'ticket' },
  ]);
  expect(named(alerts, 'BulkDisputesPruneOverdue')[0]?.annotations).toEqual({
    summary: 'bulk-disputes prune (test): no successful prune within the personal-data period',
    description: expect.stringMatching(/^No prune of this group has finished in longer than its policy's/) as unknown,
    runbook_url: 'docs/monitoring.md#bulkdisputespruneoverdue',
  });
  // Evaluated every second since both pushes: BulkDisputesNoSuccess had its chance at the prune.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const later = await prometheus.alerts();
  expect(
    [...named(later, 'BulkDisputesNoSuccess'), ...named(later, 'BulkDisputesNoSuccess', 'pending')].map(
      (alert) => alert.labels.job,
    ),
  ).toEqual(['import']);
});
