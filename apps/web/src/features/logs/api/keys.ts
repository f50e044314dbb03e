/** What `GET /api/logs` is asked: the component or config item, one of its selectors, the search text and the time range. */
export interface LogsQuery {
  id: string;
  name: string;
  query: string;
  start: string;
}

/** Every logs query key starts with `all`, so one invalidation refreshes the whole page. */
export const logsKeys = {
  all: ['logs'] as const,
  components: () => [...logsKeys.all, 'components'] as const,
  /** The component or config item a link names, with its selectors. */
  subject: (id: string) => [...logsKeys.all, 'subject', id] as const,
  configItems: (search: string) => [...logsKeys.all, 'config-items', search] as const,
  /** The first page of an answer or all of it (see useLogsQuery). */
  lines: (query: LogsQuery, part: 'first' | 'all') => [...logsKeys.all, 'lines', query, part] as const,
};
