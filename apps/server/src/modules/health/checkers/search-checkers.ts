import { connectionOriginMessage, leavesConnectionOrigin, httpProbe, MAX_RESPONSE_BYTES, type HttpProbeResponse } from '../../connections';
import type { AlertmanagerCheckSpec, ElasticsearchCheckSpec } from '@opsdeck/shared';
import { failed, isInlineUrl, withThreshold, type CheckerContext, type CheckOutcome } from './checker';

interface ServiceTarget {
  url: string | null;
  username: string | null;
  password: string | null;
  insecureTls: boolean;
}

/** The check's own URL and credentials win over those of the connection it names. */
async function serviceTarget(
  spec: { url?: string | undefined; connection?: string | undefined },
  credentials: { username: string; password: string } | undefined,
  context: CheckerContext,
): Promise<ServiceTarget> {
  if (spec.url !== undefined && spec.url !== '' && spec.connection !== undefined && !isInlineUrl(spec.connection)) {
    // Refused at save too; this covers a spec stored before the rule.
    const stored = await context.resolveConnection(spec.connection);
    if (leavesConnectionOrigin(stored.url, spec.url)) throw new Error(connectionOriginMessage('url'));
  }
  const inline = spec.url ?? (spec.connection !== undefined && isInlineUrl(spec.connection) ? spec.connection : undefined);
  if (inline !== undefined || spec.connection === undefined) {
    return { url: inline ?? null, username: credentials?.username ?? null, password: credentials?.password ?? null, insecureTls: false };
  }
  const connection = await context.resolveConnection(spec.connection);
  return {
    url: connection.url,
    username: credentials?.username ?? connection.username,
    password: credentials?.password ?? connection.password,
    insecureTls: connection.insecureTls,
  };
}

function endpoint(base: string, path: string): string {
  return new URL(path, base.endsWith('/') ? base : `${base}/`).toString();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(response: HttpProbeResponse): { ok: true; value: unknown } | { ok: false; outcome: CheckOutcome } {
  if (response.truncated) return { ok: false, outcome: failed(`HTTP ${response.status}: the answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`) };
  try {
    return { ok: true, value: JSON.parse(response.body) as unknown };
  } catch {
    return { ok: false, outcome: failed(`HTTP ${response.status}: the answer is not JSON`) };
  }
}

/** A JSON call to the service with its credentials: a POST of `jsonBody` when given, else a GET. */
async function fetchJson(
  target: ServiceTarget,
  url: string,
  context: CheckerContext,
  jsonBody?: string,
): Promise<{ response: HttpProbeResponse; parsed: ReturnType<typeof parseJson> }> {
  const response = await httpProbe({
    url,
    ...(jsonBody === undefined
      ? { headers: { accept: 'application/json' } }
      : { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: jsonBody }),
    username: target.username,
    password: target.password,
    insecureTls: target.insecureTls,
    timeoutMs: context.timeoutMs,
    signal: context.signal,
  });
  return { response, parsed: parseJson(response) };
}

/** Top-level keys of an Elasticsearch search body; an object with none of them is a bare query clause. */
const SEARCH_BODY_KEYS = new Set([
  'query',
  'aggs',
  'aggregations',
  'post_filter',
  'runtime_mappings',
  'min_score',
  'knn',
  'sort',
  'size',
  'from',
  'track_total_hits',
  'terminate_after',
  'timeout',
  '_source',
  'fields',
  'collapse',
  'highlight',
  'indices_boost',
  'search_after',
  'pit',
]);

/** The search body to send, or the reason the spec's query cannot be one. */
function searchBody(query: ElasticsearchCheckSpec['query']): { body: Record<string, unknown> } | { error: string } {
  let parsed: unknown = query;
  if (typeof query === 'string') {
    if (query.trim() === '') parsed = undefined;
    else {
      try {
        parsed = JSON.parse(query);
      } catch {
        return { error: 'The query is not valid JSON' };
      }
    }
  }
  if (parsed === undefined) parsed = { query: { match_all: {} } };
  if (!isRecord(parsed)) return { error: 'The query must be a JSON object' };
  const keys = Object.keys(parsed);
  const body = keys.length > 0 && !keys.some((key) => SEARCH_BODY_KEYS.has(key)) ? { query: parsed } : parsed;
  // Only the count matters, so no documents are fetched and the total is exact beyond 10,000.
  return { body: { ...body, size: 0, track_total_hits: true } };
}

function elasticsearchError(status: number, answer: unknown): string {
  const error = isRecord(answer) ? answer.error : undefined;
  if (typeof error === 'string') return `HTTP ${status}: ${error}`;
  if (!isRecord(error)) return `HTTP ${status}: the search failed`;
  const describe = (cause: Record<string, unknown>): string =>
    [cause.type, cause.reason].filter((part): part is string => typeof part === 'string' && part !== '').join(': ');
  const [rootCause] = Array.isArray(error.root_cause) ? error.root_cause.filter(isRecord) : [];
  const main = describe(error) || 'the search failed';
  const root = rootCause === undefined ? '' : describe(rootCause);
  return `HTTP ${status}: ${main}${root !== '' && root !== main ? ` (caused by ${root})` : ''}`;
}

function totalHits(answer: unknown): number | null {
  const hits = isRecord(answer) ? answer.hits : undefined;
  if (!isRecord(hits)) return null;
  // Elasticsearch 6 answers a bare number; 7 and later (and OpenSearch) an object {value, relation}.
  const total = isRecord(hits.total) ? hits.total.value : hits.total;
  return typeof total === 'number' && Number.isFinite(total) ? total : null;
}

/** Basic credentials of a search check: `authentication` or the top-level pair canary-checker writes (never both). */
function searchCredentials(spec: ElasticsearchCheckSpec): { username: string; password: string } | undefined {
  if (spec.authentication !== undefined) return spec.authentication;
  if (spec.username === undefined && spec.password === undefined) return undefined;
  return { username: spec.username ?? '', password: spec.password ?? '' };
}

/**
 * Counts the documents of `index` matching the query; passes when the count equals `results` (if set). OpenSearch
 * answers the same search API, so its checks run here too, named as their product in what they say.
 */
export async function runElasticsearchCheck(spec: ElasticsearchCheckSpec, context: CheckerContext, product = 'Elasticsearch'): Promise<CheckOutcome> {
  const search = searchBody(spec.query);
  if ('error' in search) return failed(search.error);
  const target = await serviceTarget(spec, searchCredentials(spec), context);
  if (target.url === null || target.url === '') return failed(`No ${product} URL: set url or connection`);
  const index = encodeURIComponent(spec.index).replace(/%2C/gi, ',');
  const { response, parsed } = await fetchJson(target, endpoint(target.url, `${index}/_search`), context, JSON.stringify(search.body));
  if (!parsed.ok) return parsed.outcome;
  if (response.status !== 200) return failed(elasticsearchError(response.status, parsed.value));
  const hits = totalHits(parsed.value);
  if (hits === null) return failed(`HTTP ${response.status}: the answer has no hits.total`);
  const details = { index: spec.index, hits };
  const summary = `${hits} ${hits === 1 ? 'hit' : 'hits'}`;
  // The search answer as Elasticsearch gave it (hits.total, aggregations), as canary-checker's `results`.
  const data = { results: parsed.value };
  if (spec.results !== undefined && hits !== spec.results) return { ...failed(`${summary}; expected ${spec.results}`, details), durationMs: response.durationMs, data };
  return { ...withThreshold({ pass: true, message: summary, details }, response.durationMs, spec.thresholdMillis), durationMs: response.durationMs, data };
}

interface FiringAlert {
  name: string;
  labels: Record<string, string>;
  startsAt: string | null;
  summary: string | null;
}

const SHOWN_NAMES = 5;
const MAX_DETAILED_ALERTS = 50;

function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function firingAlertOf(entry: unknown): FiringAlert {
  const alert = isRecord(entry) ? entry : {};
  const labels = stringRecord(alert.labels);
  const annotations = stringRecord(alert.annotations);
  return {
    name: labels.alertname ?? '',
    labels,
    startsAt: typeof alert.startsAt === 'string' ? alert.startsAt : null,
    summary: annotations.summary ?? null,
  };
}

/** A name matches a pattern equal to it, or one that read as a regular expression matches the whole name. */
function nameMatcher(patterns: readonly string[]): (name: string) => boolean {
  const tests = patterns.map((pattern) => {
    let expression: RegExp | null = null;
    try {
      expression = new RegExp(`^(?:${pattern})$`);
    } catch {
      expression = null;
    }
    return (name: string): boolean => name === pattern || (expression?.test(name) ?? false);
  });
  return (name) => tests.some((test) => test(name));
}

/** An Alertmanager matcher `label="value"`; the value is quoted so any character may appear in it. */
function equalityMatcher(label: string, value: string): string {
  return `${label}=${JSON.stringify(value)}`;
}

function firingSummary(alerts: readonly FiringAlert[]): string {
  const counts = new Map<string, number>();
  for (const alert of alerts) {
    const name = alert.name === '' ? '(no alertname)' : alert.name;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const shown = ranked.slice(0, SHOWN_NAMES).map(([name, count]) => `${name} (${count})`);
  if (ranked.length > SHOWN_NAMES) shown.push(`${ranked.length - SHOWN_NAMES} more`);
  return `${alerts.length} ${alerts.length === 1 ? 'alert' : 'alerts'} firing: ${shown.join(', ')}`;
}

/**
 * Reads the active alerts (neither silenced nor inhibited) of an Alertmanager; fails while any of those the spec
 * watches fires. `filters` narrow the alerts on the server; `alerts`, `ignore` and `exclude_filters` are applied here.
 */
export async function runAlertmanagerCheck(spec: AlertmanagerCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const target = await serviceTarget(spec, undefined, context);
  if (target.url === null || target.url === '') return failed('No Alertmanager URL: set url or connection');
  const url = new URL(endpoint(target.url, 'api/v2/alerts'));
  url.searchParams.set('active', 'true');
  url.searchParams.set('silenced', 'false');
  url.searchParams.set('inhibited', 'false');
  for (const [label, value] of Object.entries(spec.filters ?? {})) url.searchParams.append('filter', equalityMatcher(label, value));
  const { response, parsed } = await fetchJson(target, url.toString(), context);
  if (!parsed.ok) return parsed.outcome;
  if (response.status !== 200) {
    const reason = isRecord(parsed.value) && typeof parsed.value.message === 'string' ? parsed.value.message : 'the alerts could not be read';
    return failed(`HTTP ${response.status}: ${reason}`);
  }
  if (!Array.isArray(parsed.value)) return failed(`HTTP ${response.status}: the answer is not a list of alerts`);
  const watched = (spec.alerts ?? []).length === 0 ? (): boolean => true : nameMatcher(spec.alerts ?? []);
  const ignored = nameMatcher(spec.ignore ?? []);
  const excluded = Object.entries(spec.exclude_filters ?? {});
  const firing = parsed.value
    .map(firingAlertOf)
    .filter((alert) => watched(alert.name) && !ignored(alert.name) && !excluded.some(([label, value]) => alert.labels[label] === value));
  const data = { results: { alerts: firing.map((alert) => ({ ...alert, message: alert.summary ?? '' })) } };
  if (firing.length > 0) {
    const details = { total: firing.length, alerts: firing.slice(0, MAX_DETAILED_ALERTS) };
    return { ...failed(firingSummary(firing), details), durationMs: response.durationMs, data };
  }
  const outcome = { pass: true, message: 'No matching alerts firing', details: { examined: parsed.value.length } };
  return { ...withThreshold(outcome, response.durationMs, spec.thresholdMillis), durationMs: response.durationMs, data };
}
