import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { LOG_DEFAULT_START, isTimeRangeKey, type TimeRangeKey } from '@opsdeck/shared';
import { decodeLabelFilters, type LabelFilter } from './label-filters';

/** The logs page's query parameters (spec 000 §2), plus `labels` for the label chips' filters. */
export const LOGS_PARAMS = ['topologyId', 'logsSelector', 'query', 'start', 'labels'] as const;
export type LogsParamName = (typeof LOGS_PARAMS)[number];

export interface LogsPageParams {
  /** The chosen component's id. */
  topologyId: string | null;
  logsSelector: string | null;
  query: string;
  start: TimeRangeKey;
  labels: LabelFilter[];
  /** `labels` as written, a stable key for what depends on the filters. */
  labelsText: string;
}

export interface LogsParamsUpdateOptions {
  /** Replace the history entry (typing, automatic choices) rather than add one (a choice the user may go back on). */
  replace?: boolean;
}

export type LogsParamsUpdate = (entries: Partial<Record<LogsParamName, string | null>>, options?: LogsParamsUpdateOptions) => void;

/** LOG_DEFAULT_START is a time-range key; the fallback keeps the type honest should the constant ever change. */
const DEFAULT_START: TimeRangeKey = isTimeRangeKey(LOG_DEFAULT_START) ? LOG_DEFAULT_START : '1h';

function nonEmpty(value: string | null): string | null {
  return value === null || value === '' ? null : value;
}

/**
 * The page's state read from the URL, and a writer that drops parameters set to null or '' (and `start` at its
 * default), so a shared link holds only what differs.
 */
export function useLogsParams(): { params: LogsPageParams; update: LogsParamsUpdate } {
  const [search, setSearch] = useSearchParams();
  const topologyId = nonEmpty(search.get('topologyId'));
  const logsSelector = nonEmpty(search.get('logsSelector'));
  const query = search.get('query') ?? '';
  const rawStart = search.get('start') ?? '';
  const labelsText = search.get('labels') ?? '';
  const params = useMemo<LogsPageParams>(
    () => ({
      topologyId,
      logsSelector,
      query,
      // The picker offers time-range keys only; anything else (a hand-edited link) falls back to the default.
      start: isTimeRangeKey(rawStart) ? rawStart : DEFAULT_START,
      labels: decodeLabelFilters(labelsText),
      labelsText,
    }),
    [topologyId, logsSelector, query, rawStart, labelsText],
  );
  const update = useCallback<LogsParamsUpdate>(
    (entries, { replace = false } = {}) =>
      setSearch(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [name, value] of Object.entries(entries)) {
            if (value === null || value === undefined || value === '' || (name === 'start' && value === DEFAULT_START)) next.delete(name);
            else next.set(name, value);
          }
          return next;
        },
        { replace },
      ),
    [setSearch],
  );
  return { params, update };
}
