import type { LogSelector } from '@opsdeck/shared';
import type { ComponentOption } from '../api/get-components-with-logs';
import type { ConfigItemOption } from '../api/get-config-items-with-logs';

/** What the logs call reads lines for: a topology component or a catalog configuration item. */
export type LogSubjectKind = 'component' | 'config';

/** A component or config item as the picker offers it. */
export interface LogSubjectOption {
  kind: LogSubjectKind;
  id: string;
  name: string;
  type: string | null;
  /** The item's tags; {} for a component. */
  tags: Record<string, string>;
}

/** The chosen component or item, with the selectors the logs call takes. */
export interface LogSubject extends LogSubjectOption {
  log_selectors: LogSelector[];
}

/**
 * The tags that say where an item runs: two items of one name and type (a deployment in two clusters) differ here. A
 * Kubernetes item is placed by its cluster and namespace; a cloud item, which has neither, by its account and region.
 */
export const PLACE_TAGS: readonly (readonly string[])[] = [
  ['cluster', 'namespace'],
  ['account', 'region'],
];

export function componentSubject(row: ComponentOption): LogSubjectOption {
  return { kind: 'component', id: row.id, name: row.name, type: row.type, tags: {} };
}

export function configItemSubject(row: ConfigItemOption): LogSubjectOption {
  return { kind: 'config', id: row.id, name: row.name, type: row.type, tags: row.tags ?? {} };
}

/** `prod-eu / shop`: the first set of place tags the item has, or null when it has none. */
export function placeOf(subject: Pick<LogSubjectOption, 'tags'>): string | null {
  for (const tags of PLACE_TAGS) {
    const values = tags.flatMap((tag) => {
      const value = subject.tags[tag];
      return value === undefined || value === '' ? [] : [value];
    });
    if (values.length > 0) return values.join(' / ');
  }
  return null;
}

/** `Kubernetes::Deployment` reads as `Deployment` where space is short; the full type stays in the title. */
export function shortType(type: string | null): string | null {
  if (type === null || type === '') return null;
  return type.split('::').at(-1) ?? type;
}
