import type { z } from 'zod';
import type { LogLine, lokiLogBackendSchema } from '@opsdeck/shared';
import type { ResolvedConnection } from '../../connections';
import { logErrors } from '../log-errors';
import { escapeLogQl, renderLogTemplate } from '../log-templates';
import { parseLine } from './line-parser';
import { backendRequest, displayUrl, errorSummary } from './backend-http';
import { LogBackendError, newestFirst, type LogQuery, type LogResult } from './types';

export type LokiLogBackendSpec = z.infer<typeof lokiLogBackendSchema>;

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A stream selector from labels: `{app="cart",namespace="shop"}`, names Loki accepts, values as escaped literals. */
export function streamSelector(labels: Record<string, string>): string | null {
  const matchers = Object.entries(labels)
    .filter(([name]) => LABEL_NAME.test(name))
    .map(([name, value]) => `${name}="${escapeLogQl(value)}"`);
  return matchers.length === 0 ? null : `{${matchers.join(',')}}`;
}

/**
 * The LogQL of one call: the spec's query template (values escaped as LogQL literals) or a selector built from the
 * route's labels (the subject's own labels when the route names none), then a case-insensitive line filter for the search text: `|= "x"` alone would miss `X`.
 */
export async function lokiQuery(spec: LokiLogBackendSpec, query: LogQuery): Promise<string> {
  const selector =
    spec.query === undefined ? (streamSelector(query.selectorLabels) ?? streamSelector(query.subject.labels)) : await renderLogTemplate('spec.loki.query', spec.query, query.subject, escapeLogQl);
  if (selector === null || selector === '') {
    throw logErrors.template('spec.loki.query', 'there is no stream selector: give a query template or route labels');
  }
  if (query.search === '') return selector;
  const pattern = `(?i)${query.search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
  return `${selector} |~ "${escapeLogQl(pattern)}"`;
}

interface LokiStream {
  stream?: Record<string, string>;
  values?: Array<[string, string]>;
}

function nanosToIso(value: string): string | null {
  if (!/^\d{1,19}$/.test(value)) return null;
  const millis = Number(BigInt(value) / 1_000_000n);
  return Number.isFinite(millis) ? new Date(millis).toISOString() : null;
}

function toNanos(date: Date): string {
  return (BigInt(date.getTime()) * 1_000_000n).toString();
}

/** `GET {url}/loki/api/v1/query_range`, newest first (direction=backward), parsed from the documented `streams` result. */
export async function queryLokiBackend(spec: LokiLogBackendSpec, query: LogQuery, connection: ResolvedConnection | null): Promise<LogResult> {
  const logql = await lokiQuery(spec, query);
  const url = new URL(`${spec.url.replace(/\/+$/, '')}/loki/api/v1/query_range`);
  url.searchParams.set('query', logql);
  url.searchParams.set('start', toNanos(query.start));
  url.searchParams.set('end', toNanos(query.end));
  url.searchParams.set('limit', String(query.limit));
  url.searchParams.set('direction', 'backward');
  const response = await backendRequest({ url: url.toString(), method: 'GET', connection, signal: query.signal });
  if (response.status !== 200) throw new LogBackendError(`${displayUrl(url.toString())} answered ${errorSummary(response.status, response.body)}`);
  let streams: LokiStream[];
  try {
    const body = JSON.parse(response.body) as { status?: unknown; data?: { resultType?: unknown; result?: unknown } };
    if (body.data?.resultType !== 'streams' || !Array.isArray(body.data.result)) throw new Error('not a streams result');
    streams = body.data.result as LokiStream[];
  } catch {
    throw new LogBackendError(`${displayUrl(url.toString())} did not answer a Loki streams result`);
  }
  const lines: LogLine[] = [];
  streams.forEach((stream, streamIndex) => {
    const labels = typeof stream.stream === 'object' && stream.stream !== null ? stream.stream : {};
    for (const [valueIndex, value] of (Array.isArray(stream.values) ? stream.values : []).entries()) {
      if (!Array.isArray(value) || typeof value[0] !== 'string' || typeof value[1] !== 'string') continue;
      const level = labels.level ?? parseLine(value[1], { format: 'auto' }).level;
      lines.push({
        id: `${streamIndex}:${valueIndex}:${value[0]}`,
        timestamp: nanosToIso(value[0]),
        message: value[1],
        labels: { ...labels, ...(level === null || level === undefined ? {} : { level }) },
      });
    }
  });
  // Loki caps the whole answer at `limit` entries across streams, so as many as asked means there may be more.
  const sorted = newestFirst(lines).slice(0, query.limit);
  return { lines: sorted, total: sorted.length, truncated: lines.length >= query.limit };
}
