import { COMPONENT_STATUS_RANK } from '@opsdeck/shared';
import type { ComponentProperty, ComponentStatus } from '../api/types';
import { FIELD_SORT_PREFIX, type TopologySortOrder } from './topology-params';

type SortKey = number | string | null;

/** What the sorts read: cards are whole components, the children listed in a card are rows without properties. */
export interface SortableComponent {
  status: ComponentStatus;
  name: string;
  type?: string | null;
  properties?: readonly ComponentProperty[];
}

function propertySortKey(property: ComponentProperty | undefined): SortKey {
  if (property === undefined) return null;
  if (typeof property.value === 'number') return property.value;
  return property.text ?? null;
}

function sortKey(component: SortableComponent, sortBy: string): SortKey {
  if (sortBy === 'status') return COMPONENT_STATUS_RANK[component.status];
  if (sortBy === 'name') return component.name.toLowerCase();
  if (sortBy === 'type') return component.type?.toLowerCase() ?? null;
  if (sortBy.startsWith(FIELD_SORT_PREFIX)) {
    const name = sortBy.slice(FIELD_SORT_PREFIX.length);
    return propertySortKey(component.properties?.find((property) => property.name === name));
  }
  return null;
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

/**
 * Cards in the chosen order; `status desc` is unhealthy, warning, healthy, unknown (spec 001 §9). Components without
 * the sorted value come last either way, and ties go by name so a refresh never reshuffles equal cards.
 */
export function sortComponents<T extends SortableComponent>(components: readonly T[], sortBy: string, sortOrder: TopologySortOrder): T[] {
  const direction = sortOrder === 'asc' ? 1 : -1;
  const keyed = components.map((component) => ({ component, key: sortKey(component, sortBy) }));
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) {
      if (a.key !== b.key) return a.key === null ? 1 : -1;
    } else {
      const order = compareKeys(a.key, b.key) * direction;
      if (order !== 0) return order;
    }
    return a.component.name.localeCompare(b.component.name, undefined, { numeric: true });
  });
  return keyed.map(({ component }) => component);
}

/** Children as the detailed view lists them: unhealthy, warning, healthy, unknown, then by name. */
export function byHealth<T extends Pick<SortableComponent, 'status' | 'name'>>(components: readonly T[]): T[] {
  return sortComponents(components, 'status', 'desc');
}
