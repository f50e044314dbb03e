/**
 * A strict parser of the Prometheus text exposition format (version 0.0.4), for the tests of /metrics: it refuses
 * what a Prometheus server would refuse (bad names, bad escapes, a sample outside its declared family, a series
 * twice, a histogram whose buckets are not cumulative or do not end in +Inf equal to its _count), so a test that
 * parses the output proves a real scraper could read it.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The sample's own name: for a histogram, `<family>_bucket`, `_sum` or `_count`. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES: ReadonlySet<string> = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export class ExpositionError extends Error {
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
  }
}

/** As Prometheus reads values (Go's ParseFloat): NaN and Inf in any case, Inf also spelled Infinity. */
function parseValue(text: string, line: number): number {
  if (/^[+]?inf(inity)?$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf(inity)?$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (/^nan$/i.test(text)) return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new ExpositionError(line, `${JSON.stringify(text)} is not a sample value`);
  return Number(text);
}

function unescapeHelp(text: string, line: number): string {
  return text.replace(/\\(.?)/g, (_, next: string) => {
    if (next === '\\') return '\\';
    if (next === 'n') return '\n';
    throw new ExpositionError(line, `bad escape \\${next} in HELP`);
  });
}

/** Reads `{a="x",b="y"}` from `text` at `start` (the brace); returns the labels and the index after the closing brace. */
function parseLabels(text: string, start: number, line: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    if (text[i] === '}') return { labels, end: i + 1 };
    const nameMatch = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(text.slice(i));
    if (nameMatch === null) throw new ExpositionError(line, `a label name was expected at column ${i + 1}`);
    const name = nameMatch[0];
    i += name.length;
    if (text[i] !== '=' || text[i + 1] !== '"') throw new ExpositionError(line, `label ${name} needs ="value"`);
    i += 2;
    let value = '';
    for (;;) {
      const char = text[i];
      if (char === undefined) throw new ExpositionError(line, `the value of label ${name} is not closed`);
      if (char === '"') break;
      if (char === '\\') {
        const next = text[i + 1];
        if (next === '\\') value += '\\';
        else if (next === '"') value += '"';
        else if (next === 'n') value += '\n';
        else throw new ExpositionError(line, `bad escape \\${next ?? ''} in the value of label ${name}`);
        i += 2;
        continue;
      }
      value += char;
      i += 1;
    }
    i += 1;
    if (Object.hasOwn(labels, name)) throw new ExpositionError(line, `label ${name} given twice`);
    labels[name] = value;
    if (text[i] === ',') i += 1;
    else if (text[i] !== '}') throw new ExpositionError(line, `, or } expected after label ${name}`);
  }
}

function familyOf(sampleName: string, families: Map<string, MetricFamily>): MetricFamily | undefined {
  const exact = families.get(sampleName);
  if (exact !== undefined && exact.type !== 'histogram') return exact;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!sampleName.endsWith(suffix)) continue;
    const family = families.get(sampleName.slice(0, -suffix.length));
    if (family === undefined) continue;
    if (family.type === 'histogram') return family;
    if (family.type === 'summary' && suffix !== '_bucket') return family;
  }
  return undefined;
}

function checkHistogram(family: MetricFamily): void {
  const series = new Map<string, { buckets: Array<{ le: number; value: number }>; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (sample.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push({ le: le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le), value: sample.value });
    } else if (sample.name.endsWith('_count')) entry.count = sample.value;
    else entry.sum = sample.value;
  }
  for (const [key, entry] of series) {
    const sorted = [...entry.buckets].sort((a, b) => a.le - b.le);
    if (sorted.length === 0 || sorted.at(-1)?.le !== Number.POSITIVE_INFINITY) throw new Error(`${family.name}${key}: no +Inf bucket`);
    for (let i = 1; i < sorted.length; i += 1) {
      if ((sorted[i]?.value ?? 0) < (sorted[i - 1]?.value ?? 0)) throw new Error(`${family.name}${key}: buckets are not cumulative`);
    }
    if (entry.count === undefined || entry.sum === undefined) throw new Error(`${family.name}${key}: _count or _sum missing`);
    if (sorted.at(-1)?.value !== entry.count) throw new Error(`${family.name}${key}: the +Inf bucket differs from _count`);
  }
}

/** Parses an exposition; throws ExpositionError (or Error for a broken histogram) on anything a scraper would refuse. */
export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const seenSeries = new Set<string>();
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    if (raw.trim() === '') continue;
    if (raw.startsWith('#')) {
      const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(raw);
      if (meta === null) continue;
      const [, kind, name = '', rest = ''] = meta;
      if (!METRIC_NAME.test(name)) throw new ExpositionError(line, `${JSON.stringify(name)} is not a metric name`);
      const family = families.get(name) ?? { name, help: '', type: 'untyped' as MetricType, samples: [] };
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new ExpositionError(line, `${JSON.stringify(rest)} is not a metric type`);
        if (family.samples.length > 0) throw new ExpositionError(line, `TYPE of ${name} after its samples`);
        family.type = rest as MetricType;
      } else {
        family.help = unescapeHelp(rest, line);
      }
      families.set(name, family);
      continue;
    }
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(raw);
    if (nameMatch === null) throw new ExpositionError(line, 'a sample must start with a metric name');
    const name = nameMatch[0];
    let rest = raw.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) {
      const parsed = parseLabels(raw, name.length, line);
      labels = parsed.labels;
      rest = raw.slice(parsed.end);
    }
    for (const label of Object.keys(labels)) if (!LABEL_NAME.test(label)) throw new ExpositionError(line, `${label} is not a label name`);
    const parts = rest.trim().split(/\s+/);
    if (!rest.startsWith(' ') || parts.length < 1 || parts.length > 2 || parts[0] === '') throw new ExpositionError(line, 'a sample needs a value (and at most a timestamp)');
    const value = parseValue(parts[0] ?? '', line);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new ExpositionError(line, `${parts[1]} is not a timestamp`);
    const family = familyOf(name, families);
    if (family === undefined) throw new ExpositionError(line, `sample ${name} belongs to no declared family`);
    if (family.type === 'counter' && (value < 0 || Number.isNaN(value))) throw new ExpositionError(line, `counter ${name} is ${value}`);
    const series = `${name}${JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)))}`;
    if (seenSeries.has(series)) throw new ExpositionError(line, `series ${series} given twice`);
    seenSeries.add(series);
    family.samples.push({ name, labels, value });
  }
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** The value of one series, or undefined when the exposition has none; labels not named are not compared. */
export function sampleValue(families: Map<string, MetricFamily>, family: string, sample: string, labels: Record<string, string> = {}): number | undefined {
  const found = families.get(family)?.samples.find((s) => s.name === sample && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  return found?.value;
}

/** The sum of every series of a family's sample name whose labels include `labels`. */
export function sumOf(families: Map<string, MetricFamily>, family: string, sample: string, labels: Record<string, string> = {}): number {
  return (families.get(family)?.samples ?? [])
    .filter((s) => s.name === sample && Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .reduce((total, s) => total + s.value, 0);
}
