import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { RESERVED_METRIC_PREFIXES, type CHECK_METRIC_TYPES } from '@opsdeck/shared';

export type CheckMetricType = (typeof CHECK_METRIC_TYPES)[number];

/** One value a check's `metrics` (or its transform) produced in one run. */
export interface MetricSample {
  name: string;
  type: CheckMetricType;
  value: number;
  labels: Record<string, string>;
}

/** Series one metric may hold, and all of them together: label values come from results, so they are bounded here. */
export const MAX_SERIES_PER_METRIC = 1_000;
export const MAX_CHECK_SERIES = 10_000;

interface Instrument {
  type: CheckMetricType;
  /** Sorted, so `{a, b}` and `{b, a}` are the same metric. */
  labelNames: readonly string[];
  series: Set<string>;
  record(labels: Record<string, string>, value: number): void;
}

function seriesKey(labelNames: readonly string[], labels: Record<string, string>): string {
  return JSON.stringify(labelNames.map((name) => labels[name] ?? ''));
}

/**
 * The metrics checks define (canary-checker's `metrics`), in the app's registry beside the server's own. The first
 * sample of a name fixes its type and label names, as a Prometheus registry must; a later sample that differs, or one
 * that would pass the series limits, is refused with a message the check's result then carries. Counters only go up
 * (a value of zero or less adds nothing, as canary-checker does).
 */
export class CheckMetricRegistry {
  private readonly instruments = new Map<string, Instrument>();
  private seriesCount = 0;

  constructor(private readonly registry: Registry) {}

  /** Records each sample; returns one problem per sample that was not recorded. */
  record(samples: readonly MetricSample[]): string[] {
    const problems: string[] = [];
    for (const sample of samples) {
      const problem = this.recordOne(sample);
      if (problem !== null) problems.push(`metric ${sample.name}: ${problem}`);
    }
    return problems;
  }

  private recordOne(sample: MetricSample): string | null {
    if (RESERVED_METRIC_PREFIXES.some((prefix) => sample.name.startsWith(prefix))) return 'the name is one of the server\'s own metrics; choose another';
    if (!Number.isFinite(sample.value)) return `the value ${String(sample.value)} is not a finite number`;
    const labelNames = Object.keys(sample.labels).sort();
    let instrument = this.instruments.get(sample.name);
    if (instrument === undefined) {
      if (this.registry.getSingleMetric(sample.name) !== undefined) return 'the name is one of the server\'s own metrics; choose another';
      try {
        instrument = this.create(sample.name, sample.type, labelNames);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      this.instruments.set(sample.name, instrument);
    }
    if (instrument.type !== sample.type) return `already recorded as a ${instrument.type} by another check; a name has one type`;
    if (instrument.labelNames.join(',') !== labelNames.join(',')) {
      return `already recorded with the labels [${instrument.labelNames.join(', ')}]; a name has one set of label names`;
    }
    const key = seriesKey(labelNames, sample.labels);
    if (!instrument.series.has(key)) {
      if (instrument.series.size >= MAX_SERIES_PER_METRIC) return `holds ${MAX_SERIES_PER_METRIC} series already (one per set of label values); this one is not recorded`;
      if (this.seriesCount >= MAX_CHECK_SERIES) return `checks hold ${MAX_CHECK_SERIES} series already on this process; this one is not recorded`;
      instrument.series.add(key);
      this.seriesCount += 1;
    }
    instrument.record(sample.labels, sample.value);
    return null;
  }

  private create(name: string, type: CheckMetricType, labelNames: readonly string[]): Instrument {
    const options = { name, help: `Defined by a health check's metrics (${type})`, labelNames: [...labelNames], registers: [this.registry] };
    const series = new Set<string>();
    switch (type) {
      case 'gauge': {
        const gauge = new Gauge(options);
        return { type, labelNames, series, record: (labels, value) => gauge.set(labels, value) };
      }
      case 'counter': {
        const counter = new Counter(options);
        return { type, labelNames, series, record: (labels, value) => (value > 0 ? counter.inc(labels, value) : undefined) };
      }
      case 'histogram': {
        const histogram = new Histogram(options);
        return { type, labelNames, series, record: (labels, value) => histogram.observe(labels, value) };
      }
    }
  }
}
