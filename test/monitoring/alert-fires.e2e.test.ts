import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { disputesWorkspace, importIn, startPushgateway } from '../metrics/metrics-fixtures.js';
import { pollUntil, startPrometheus, type Alert, type Prometheus } from './prometheus.js';

/**
 * The shipped alert rules at work (docs/monitoring.md): the built CLI pushes an import's outcome to
 * a real Pushgateway, a real Prometheus scrapes it with monitoring/bulk-disputes-rules.yml, and
 * BulkDisputesNightFailed stays silent after a night that finished and fires after one that failed.
 */

const shippedRules = fileURLToPath(new URL('../../monitoring/bulk-disputes-rules.yml', import.meta.url));

/**
 * The shipped rules with every `for:` set to `0s`: the expressions, labels and annotations are the
 * shipped ones, only the pause before firing (10 to 30 minutes, for a retry's time) is shortened.
 */
function withoutPauses(rules: string): string {
  return rules.replace(/^(\s*for: ).+$/gm, '$10s');
}

/** The alerts of that name (`alertname`), pending or firing. */
function named(alerts: readonly Alert[], name: string): Alert[] {
  return alerts.filter((alert) => alert.labels.alertname === name);
}

async function lastExitCode(prometheus: Prometheus, expected: string): Promise<void> {
  await pollUntil(`Prometheus scrapes bulk_disputes_last_exit_code ${expected}`, 30_000, async () => {
    const samples = await prometheus.query('bulk_disputes_last_exit_code{job="import",environment="test"}');
    return samples.length === 1 && samples[0]?.value[1] === expected ? true : { lastSeen: JSON.stringify(samples) };
  });
}

it(
  'BulkDisputesNightFailed: silent after a night that finished, firing after one that failed',
  { timeout: 60_000 },
  async () => {
    const shipped = await readFile(shippedRules, 'utf8');
    const rules = withoutPauses(shipped);
    const [shippedLines, copiedLines] = [shipped.split('\n'), rules.split('\n')];
    expect(copiedLines).toHaveLength(shippedLines.length);
    const changed = shippedLines.flatMap((line, index) =>
      line === copiedLines[index] ? [] : [[line, copiedLines[index]]],
    );
    expect(changed.length).toBeGreaterThan(0);
    for (const [before, after] of changed) {
      expect(before).toMatch(/^\s+for: \d+[smh]$/);
      expect(after).toMatch(/^\s+for: 0s$/);
    }

    const gateway = await startPushgateway();
    const prometheus = await startPrometheus({ gatewayUrl: gateway.url, rules });
    const workspace = await disputesWorkspace();

    const good = await importIn(workspace, ['--metrics-push', gateway.url]);
    expect(good.exitCode, good.stderr).toBe(0);
    await lastExitCode(prometheus, '0');
    // Three more evaluation cycles (1 s each) with the success in: the rule has had its chance to fire.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const afterGood = await prometheus.alerts();
    expect(named(afterGood, 'BulkDisputesNightFailed'), JSON.stringify(afterGood)).toEqual([]);
    expect(named(afterGood, 'BulkDisputesNoSuccess'), JSON.stringify(afterGood)).toEqual([]);

    // Exit 2: a mapping that is not there, refused before anything is sent; its outcome is pushed all the same.
    const bad = await importIn(workspace, ['--metrics-push', gateway.url, '--mapping', 'missing.yaml']);
    expect(bad.exitCode, bad.stderr).toBe(2);
    const [firing] = await pollUntil('BulkDisputesNightFailed firing on /api/v1/alerts', 30_000, async () => {
      const alerts = await prometheus.alerts();
      const found = named(alerts, 'BulkDisputesNightFailed').filter((alert) => alert.state === 'firing');
      return found.length > 0
        ? found
        : { lastSeen: `${JSON.stringify(alerts)}\nPrometheus's log:\n${prometheus.logTail()}` };
    });
    expect(firing?.labels).toEqual({
      alertname: 'BulkDisputesNightFailed',
      job: 'import',
      environment: 'test',
      severity: 'page',
    });
    expect(firing?.annotations).toEqual({
      summary: 'bulk-disputes import (test): the last run failed with exit code 2',
      description: expect.stringMatching(/^The last run stopped before finishing\. 2: the job's flags/) as unknown,
      runbook_url: 'docs/monitoring.md#bulkdisputesnightfailed',
    });
    // The failed night kept the last success at the gateway: no alert says there was none.
    expect(named(await prometheus.alerts(), 'BulkDisputesNoSuccess')).toEqual([]);
  },
);
