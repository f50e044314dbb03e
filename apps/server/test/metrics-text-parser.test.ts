import { describe, expect, it } from 'vitest';
import { parsePrometheusText, sampleValue } from './prometheus-text';

const VALID = [
  '# HELP jobs_total Jobs done, with a \\\\ and a \\n in the help',
  '# TYPE jobs_total counter',
  'jobs_total{kind="a\\"b",path="x\\\\y"} 3',
  'jobs_total{kind="c"} 1 1700000000000',
  '# TYPE latency_seconds histogram',
  'latency_seconds_bucket{le="0.1"} 1',
  'latency_seconds_bucket{le="+Inf"} 2',
  'latency_seconds_sum 0.3',
  'latency_seconds_count 2',
  '# TYPE lag gauge',
  'lag Nan',
  '',
].join('\n');

describe('the Prometheus text parser of the metrics tests', () => {
  it('reads families, escaped label values, histograms and NaN as Prometheus does', () => {
    const families = parsePrometheusText(VALID);
    expect(families.get('jobs_total')?.help).toBe('Jobs done, with a \\ and a \n in the help');
    expect(sampleValue(families, 'jobs_total', 'jobs_total', { kind: 'a"b', path: 'x\\y' })).toBe(3);
    expect(sampleValue(families, 'latency_seconds', 'latency_seconds_count')).toBe(2);
    expect(sampleValue(families, 'lag', 'lag')).toBeNaN();
  });

  it.each([
    ['a sample of no declared family', 'orphan 1'],
    ['a series given twice', '# TYPE a counter\na{x="1"} 1\na{x="1"} 2'],
    ['a negative counter', '# TYPE a counter\na -1'],
    ['a bad escape', '# TYPE a gauge\na{x="\\t"} 1'],
    ['an unclosed label value', '# TYPE a gauge\na{x="1} 1'],
    ['a value that is not a number', '# TYPE a gauge\na one'],
    ['a histogram without +Inf', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1'],
    ['buckets that are not cumulative', '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1'],
    ['a TYPE after its samples', '# TYPE a gauge\na 1\n# TYPE a counter'],
    ['an unknown type', '# TYPE a meter'],
  ])('refuses %s', (_, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
