import { Gauge, Registry } from 'prom-client';
import { metricDefinitions } from './definitions.js';
import type { RunOutcome } from './run-outcome.js';

/** The grouping labels every series carries, as the Pushgateway groups them (docs/monitoring.md). */
export function groupingOf(outcome: RunOutcome): Record<string, string> {
  return {
    job: outcome.job,
    environment: outcome.environment,
    ...(outcome.shard === undefined ? {} : { shard: String(outcome.shard) }),
  };
}

/**
 * A registry of the run's gauges, from the one list of definitions: a metric with no values in
 * this run (track's figures in an import, the last success of a failed run) is not in it at all,
 * so a push leaves the gateway's earlier value of it in place.
 */
export function registryOf(outcome: RunOutcome): Registry {
  const registry = new Registry();
  registry.setDefaultLabels(groupingOf(outcome));
  for (const definition of metricDefinitions) {
    const samples = definition.values(outcome);
    if (samples.length === 0) continue;
    const gauge = new Gauge({
      name: definition.name,
      help: definition.help,
      labelNames: definition.labels,
      registers: [registry],
    });
    for (const { labels, value } of samples) gauge.set(labels, value);
  }
  return registry;
}

/** The registry as Prometheus text (exposition format 0.0.4). */
export async function metricsText(outcome: RunOutcome): Promise<string> {
  return registryOf(outcome).metrics();
}
