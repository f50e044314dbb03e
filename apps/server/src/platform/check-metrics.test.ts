import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CheckMetricRegistry, MAX_SERIES_PER_METRIC } from './check-metrics';

function fresh(): { registry: Registry; metrics: CheckMetricRegistry } {
  const registry = new Registry();
  return { registry, metrics: new CheckMetricRegistry(registry) };
}

describe('the metrics health checks define', () => {
  it('exports gauges, counters and histograms in the registry, a gauge keeping the last value and a counter adding', async () => {
    const { registry, metrics } = fresh();
    expect(
      metrics.record([
        { name: 'exchange_rate', type: 'gauge', value: 0.8, labels: { to: 'GBP' } },
        { name: 'exchange_rate', type: 'gauge', value: 0.79, labels: { to: 'GBP' } },
        { name: 'probe_count', type: 'counter', value: 1, labels: { code: '200' } },
        { name: 'probe_count', type: 'counter', value: 2, labels: { code: '200' } },
        { name: 'probe_count', type: 'counter', value: 0, labels: { code: '500' } },
        { name: 'probe_ms', type: 'histogram', value: 42, labels: {} },
      ]),
    ).toEqual([]);
    const text = await registry.metrics();
    expect(text).toContain('exchange_rate{to="GBP"} 0.79');
    expect(text).toContain('probe_count{code="200"} 3');
    expect(text).not.toContain('probe_count{code="500"}');
    expect(text).toContain('probe_ms_count 1');
    expect(text).toContain('probe_ms_sum 42');
  });

  it('refuses a sample whose type or label names differ from the first one of its name', () => {
    const { metrics } = fresh();
    metrics.record([{ name: 'up', type: 'gauge', value: 1, labels: { site: 'a' } }]);
    expect(metrics.record([{ name: 'up', type: 'counter', value: 1, labels: { site: 'a' } }])).toEqual(['metric up: already recorded as a gauge by another check; a name has one type']);
    expect(metrics.record([{ name: 'up', type: 'gauge', value: 1, labels: { region: 'eu' } }])).toEqual([
      'metric up: already recorded with the labels [site]; a name has one set of label names',
    ]);
  });

  it("refuses the names of the server's own metrics, whether reserved by prefix or already in the registry", () => {
    const { registry, metrics } = fresh();
    new Counter({ name: 'api_calls_total', help: 'the server', registers: [registry] });
    expect(metrics.record([{ name: 'opsdeck_check_runs_total', type: 'counter', value: 1, labels: {} }])).toEqual([
      "metric opsdeck_check_runs_total: the name is one of the server's own metrics; choose another",
    ]);
    expect(metrics.record([{ name: 'api_calls_total', type: 'counter', value: 1, labels: {} }])).toEqual([
      "metric api_calls_total: the name is one of the server's own metrics; choose another",
    ]);
  });

  it(`keeps at most ${MAX_SERIES_PER_METRIC} series per metric, refusing new label values past it and still updating the known ones`, () => {
    const { metrics } = fresh();
    const samples = Array.from({ length: MAX_SERIES_PER_METRIC }, (_, i) => ({ name: 'per_user', type: 'gauge' as const, value: i, labels: { user: `u${i}` } }));
    expect(metrics.record(samples)).toEqual([]);
    expect(metrics.record([{ name: 'per_user', type: 'gauge', value: 1, labels: { user: 'one-more' } }])).toEqual([
      `metric per_user: holds ${MAX_SERIES_PER_METRIC} series already (one per set of label values); this one is not recorded`,
    ]);
    expect(metrics.record([{ name: 'per_user', type: 'gauge', value: 5, labels: { user: 'u0' } }])).toEqual([]);
  });

  it('refuses a value that is not a finite number', () => {
    const { metrics } = fresh();
    expect(metrics.record([{ name: 'm', type: 'gauge', value: Number.NaN, labels: {} }])).toEqual(['metric m: the value NaN is not a finite number']);
  });
});
