import { evaluateScraperJsonPath } from './json-path-grammar';

/**
 * config-db reads transform JSONPaths with or without the leading `$` (`.password`, `$.password`, `@.password`); they
 * are written here in the one form jsonpath-plus takes.
 */
export function normalizeJsonPath(path: string): string {
  const trimmed = path.trim();
  if (trimmed.startsWith('$')) return trimmed;
  if (trimmed.startsWith('@')) return `$${trimmed.slice(1)}`;
  if (trimmed.startsWith('.') || trimmed.startsWith('[')) return `$${trimmed}`;
  return `$.${trimmed}`;
}

interface Match {
  parent: unknown;
  parentProperty: string | number;
  value: unknown;
}

/** Every match with its parent, so it can be removed or replaced; a filter is judged by json-path-filter.ts, never run as code. */
function matchesOf(path: string, document: unknown): Match[] {
  if (typeof document !== 'object' || document === null) return [];
  const found = evaluateScraperJsonPath(normalizeJsonPath(path), document, 'all');
  if (!Array.isArray(found)) return [];
  return found.filter((match): match is Match => typeof match === 'object' && match !== null && 'parent' in match && 'parentProperty' in match);
}

/**
 * Removes what the path finds. List elements are removed from the highest index down, so removing one does not shift
 * the next; the root itself is never removed.
 */
export function deleteAtPath(document: unknown, path: string): void {
  const matches = matchesOf(path, document).filter((match) => match.parent !== null && match.parent !== undefined);
  matches.sort((a, b) => (typeof a.parentProperty === 'number' && typeof b.parentProperty === 'number' ? b.parentProperty - a.parentProperty : 0));
  for (const { parent, parentProperty } of matches) {
    if (Array.isArray(parent) && typeof parentProperty === 'number') parent.splice(parentProperty, 1);
    else if (typeof parent === 'object' && parent !== null) Reflect.deleteProperty(parent, String(parentProperty));
  }
}

/** Replaces each value the path finds by what `replace` makes of it. */
export function replaceAtPath(document: unknown, path: string, replace: (value: unknown) => unknown): void {
  for (const { parent, parentProperty, value } of matchesOf(path, document)) {
    if (typeof parent !== 'object' || parent === null) continue;
    Reflect.set(parent, parentProperty, replace(value));
  }
}
