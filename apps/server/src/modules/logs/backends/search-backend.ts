import type { z } from 'zod';
import type { LogLine, searchLogBackendSchema } from '@opsdeck/shared';
import type { ResolvedConnection } from '../../connections';
import { escapeQueryString, renderLogTemplate } from '../log-templates';
import { parseTime } from './line-parser';
import { backendRequest, displayUrl, errorSummary } from './backend-http';
import { LogBackendError, type LogQuery, type LogResult } from './types';

export type SearchLogBackendSpec = z.infer<typeof searchLogBackendSchema>;

const MAX_LABELS = 32;

/** A field by name, or by its dotted path into nested objects (`kubernetes.pod.name`). */
function fieldValue(source: Record<string, unknown>, field: string): unknown {
  if (Object.hasOwn(source, field)) return source[field];
  let current: unknown = source;
  for (const part of field.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** The `_search` body of one call: the time range and the subject's query as filters, the search text as a phrase. */
export async function searchBody(kind: 'opensearch' | 'elasticsearch', spec: SearchLogBackendSpec, query: LogQuery): Promise<Record<string, unknown>> {
  const timestampField = spec.timestampField ?? '@timestamp';
  const messageField = spec.messageField ?? 'message';
  const filter: Array<Record<string, unknown>> = [
    { range: { [timestampField]: { gte: query.start.toISOString(), lte: query.end.toISOString(), format: 'strict_date_optional_time' } } },
  ];
  if (spec.query !== undefined) {
    const rendered = await renderLogTemplate(`spec.${kind}.query`, spec.query, query.subject, escapeQueryString);
    if (rendered !== '') filter.push({ query_string: { query: rendered } });
  }
  const must: Array<Record<string, unknown>> =
    query.search === '' ? [] : [{ query_string: { query: `"${escapeQueryString(query.search)}"`, default_field: messageField } }];
  return {
    size: query.limit,
    track_total_hits: true,
    sort: [{ [timestampField]: { order: 'desc' } }],
    query: { bool: { filter, must } },
  };
}

interface Hit {
  _id?: unknown;
  _index?: unknown;
  _source?: unknown;
}

function labelsOf(source: Record<string, unknown>, skip: ReadonlySet<string>, index: unknown): Record<string, string> {
  const labels: Record<string, string> = {};
  let count = 0;
  for (const [key, value] of Object.entries(source)) {
    if (skip.has(key) || count >= MAX_LABELS) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      labels[key] = String(value);
      count += 1;
    }
  }
  if (typeof index === 'string') labels.index = index;
  return labels;
}

/** `POST {url}/{index}/_search`, sorted newest first, with the exact number of matching documents (`hits.total.value`). */
export async function querySearchBackend(
  kind: 'opensearch' | 'elasticsearch',
  spec: SearchLogBackendSpec,
  query: LogQuery,
  connection: ResolvedConnection | null,
): Promise<LogResult> {
  const body = await searchBody(kind, spec, query);
  const url = `${spec.url.replace(/\/+$/, '')}/${encodeURIComponent(spec.index).replace(/%2C/gi, ',')}/_search`;
  const response = await backendRequest({ url, method: 'POST', body: JSON.stringify(body), connection, signal: query.signal });
  if (response.status !== 200) throw new LogBackendError(`${displayUrl(url)} answered ${errorSummary(response.status, response.body)}`);
  let hits: Hit[];
  let total: number;
  try {
    const parsed = JSON.parse(response.body) as { hits?: { total?: unknown; hits?: unknown } };
    if (!Array.isArray(parsed.hits?.hits)) throw new Error('no hits');
    hits = parsed.hits.hits as Hit[];
    const rawTotal = parsed.hits.total;
    // Elasticsearch 6 and older answered a bare number; 7 and later, and OpenSearch, {value, relation}.
    total = typeof rawTotal === 'number' ? rawTotal : typeof rawTotal === 'object' && rawTotal !== null ? Number((rawTotal as { value?: unknown }).value ?? hits.length) : hits.length;
  } catch {
    throw new LogBackendError(`${displayUrl(url)} did not answer a _search result`);
  }
  const timestampField = spec.timestampField ?? '@timestamp';
  const messageField = spec.messageField ?? 'message';
  const skip = new Set([timestampField, messageField]);
  const lines: LogLine[] = hits.map((hit, index) => {
    const source = typeof hit._source === 'object' && hit._source !== null ? (hit._source as Record<string, unknown>) : {};
    const time = parseTime(fieldValue(source, timestampField));
    const message = fieldValue(source, messageField);
    return {
      id: typeof hit._id === 'string' ? hit._id : String(index),
      timestamp: time === null ? null : new Date(time).toISOString(),
      message: typeof message === 'string' ? message : JSON.stringify(source),
      labels: labelsOf(source, skip, hit._index),
    };
  });
  return { lines: lines.slice(0, query.limit), total: Number.isFinite(total) ? total : lines.length, truncated: total > lines.length };
}
