import { connectionOriginMessage, leavesConnectionOrigin, httpProbe } from '../../connections';
import type { PrometheusCheckSpec } from '@opsdeck/shared';
import { failed, withThreshold, type CheckerContext, type CheckOutcome } from './checker';

interface PrometheusAnswer {
  status?: string;
  error?: string;
  data?: { resultType?: string; result?: unknown };
}

interface Sample {
  labels: Record<string, string>;
  value: number;
}

function samplesOf(data: PrometheusAnswer['data']): Sample[] {
  const result = data?.result;
  if (data?.resultType === 'scalar' && Array.isArray(result)) return [{ labels: {}, value: Number(result[1]) }];
  if (!Array.isArray(result)) return [];
  return result.map((entry: unknown) => {
    const series = entry as { metric?: Record<string, string>; value?: [number, string] };
    return { labels: series.metric ?? {}, value: Number(series.value?.[1]) };
  });
}

/** An instant query; passes when the number of series matches `results` (if set) and every value is inside `threshold`. */
export async function runPrometheusCheck(spec: PrometheusCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  let base = spec.url;
  let username: string | null = null;
  let password: string | null = null;
  if (spec.connection !== undefined) {
    const connection = await context.resolveConnection(spec.connection);
    // Refused at save too; this keeps a spec stored before the rule from sending the credentials elsewhere.
    if (base !== undefined && base !== '' && leavesConnectionOrigin(connection.url, base)) return failed(connectionOriginMessage('url'));
    if (base === undefined || base === '') base = connection.url ?? undefined;
    username = connection.username;
    password = connection.password;
  }
  if (base === undefined || base === '') return failed('No Prometheus URL: set url or connection');
  const url = new URL('api/v1/query', base.endsWith('/') ? base : `${base}/`);
  url.searchParams.set('query', spec.query);
  const response = await httpProbe({
    url: url.toString(),
    username,
    password,
    insecureTls: spec.tls?.insecureSkipVerify,
    ca: spec.tls?.ca,
    cert: spec.tls?.cert,
    key: spec.tls?.key,
    timeoutMs: context.timeoutMs,
    signal: context.signal,
  });
  let answer: PrometheusAnswer;
  try {
    answer = JSON.parse(response.body) as PrometheusAnswer;
  } catch {
    return failed(`HTTP ${response.status}: the answer is not JSON`);
  }
  if (response.status !== 200 || answer.status !== 'success') return failed(`HTTP ${response.status}: ${answer.error ?? 'query failed'}`);
  const samples = samplesOf(answer.data);
  const details = { samples: samples.slice(0, 50) };
  // canary-checker's results: one map per series, its labels and its `value`.
  const data = { results: samples.map((sample) => ({ ...sample.labels, value: sample.value })) };
  const shown = samples.slice(0, 5).map((sample) => String(sample.value)).join(', ');
  const summary = `${samples.length} ${samples.length === 1 ? 'series' : 'series'}${samples.length > 0 ? `: ${shown}` : ''}`;
  if (spec.results !== undefined && samples.length !== spec.results) return { ...failed(`${summary}; expected ${spec.results}`, details), data };
  const { min, max } = spec.threshold ?? {};
  const outside = samples.filter((sample) => !Number.isFinite(sample.value) || (min !== undefined && sample.value < min) || (max !== undefined && sample.value > max));
  if (outside.length > 0) {
    const bounds = [min === undefined ? null : `>= ${min}`, max === undefined ? null : `<= ${max}`].filter((b) => b !== null).join(' and ');
    return { ...failed(`${summary}; ${outside.length} outside ${bounds || 'finite values'}`, details), data };
  }
  return { ...withThreshold({ pass: true, message: summary, details }, response.durationMs, spec.thresholdMillis), durationMs: response.durationMs, data };
}
