import type { LogLine } from '@opsdeck/shared';
import type { LogSubjectContext } from '../log-templates';

/** One logs call as every backend receives it, the input already checked. */
export interface LogQuery {
  subject: LogSubjectContext;
  /** The labels of the route that matched (or of the subject's own selector). */
  selectorLabels: Record<string, string>;
  /** Case-insensitive text a line must contain; '' for every line. */
  search: string;
  start: Date;
  end: Date;
  limit: number;
  /** Aborted at the backend's deadline. */
  signal: AbortSignal;
}

export interface LogResult {
  /** Newest first, at most `limit`. */
  lines: LogLine[];
  total: number;
  truncated: boolean;
}

/** A backend that cannot answer (down, refusing, answering garbage): the logs call turns it into a coded 502. */
export class LogBackendError extends Error {}

/** Newest first; lines without a time keep their place after those with one. */
export function newestFirst(lines: LogLine[]): LogLine[] {
  return lines
    .map((line, index) => ({ line, index, time: line.timestamp === null ? null : Date.parse(line.timestamp) }))
    .sort((a, b) => {
      if (a.time !== null && b.time !== null && a.time !== b.time) return b.time - a.time;
      return a.index - b.index;
    })
    .map((entry) => entry.line);
}

/** Matches text case-insensitively as typed: no pattern syntax reaches the regular expression. */
export function searchPattern(search: string, flags = 'i'): RegExp | null {
  if (search === '') return null;
  return new RegExp(search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
}
