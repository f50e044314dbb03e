import { matchesGlobs } from './transform/transform';

/**
 * config-db's annotations on a Kubernetes object (its api/v1/kubernetes.go), which Mission Control users put on the
 * objects they want kept out of the catalog or quiet in it. The two change annotations are kept as labels of the
 * object's item, as config-db keeps them, so the ingest reads them for the item's diffs as the source does for its
 * events.
 */
export const IGNORE_OBJECT_ANNOTATION = 'config-db.flanksource.com/ignore';
export const IGNORE_CHANGE_TYPES_ANNOTATION = 'config-db.flanksource.com/ignore-changes';
export const IGNORE_CHANGE_SEVERITIES_ANNOTATION = 'config-db.flanksource.com/ignore-change-severity';

/** `true` or `*` keeps the object out of the catalog altogether. */
export function ignoresObject(annotations: Readonly<Record<string, string>>): boolean {
  const value = annotations[IGNORE_OBJECT_ANNOTATION];
  return value === 'true' || value === '*';
}

function listed(value: string | undefined, candidate: string): boolean {
  if (value === undefined) return false;
  const patterns = value
    .split(',')
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern !== '');
  return patterns.length > 0 && matchesGlobs(candidate, patterns);
}

/** Whether the labels drop a change of this type: a comma list of globs, `!` to leave out. */
export function ignoresChangeType(labels: Readonly<Record<string, string>>, changeType: string): boolean {
  return listed(labels[IGNORE_CHANGE_TYPES_ANNOTATION], changeType);
}

/** Whether the labels drop a change of this type or of this severity. */
export function ignoresChange(labels: Readonly<Record<string, string>>, changeType: string, severity: string): boolean {
  return ignoresChangeType(labels, changeType) || listed(labels[IGNORE_CHANGE_SEVERITIES_ANNOTATION], severity);
}
