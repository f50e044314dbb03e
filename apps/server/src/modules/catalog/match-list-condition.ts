import type { MatchList } from '@opsdeck/shared';
import type { SqlParams } from '../../platform/sql-params';

/**
 * The condition a match list puts on `expression`: one of the included values, none of the excluded ones. Null when the list
 * is empty. A row whose value is null matches no inclusion and no exclusion.
 */
export function matchListCondition(expression: string, list: MatchList, params: SqlParams): string | null {
  const parts: string[] = [];
  if (list.include.length > 0) parts.push(`${expression} = any(${params.add(list.include, 'text[]')})`);
  if (list.exclude.length > 0) parts.push(`coalesce(${expression} <> all(${params.add(list.exclude, 'text[]')}), true)`);
  return parts.length === 0 ? null : parts.join(' and ');
}

/** `value` as a LIKE pattern matching it anywhere, its own wildcards taken literally. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
