import type { CheckSummary, GroupHealth, SummaryGroup } from '../api/types';
import { groupKeyOf } from '../utils/grouping';

export type HealthRow =
  | { kind: 'group'; group: SummaryGroup; expanded: boolean; loading: boolean }
  | { kind: 'check'; check: CheckSummary; grouped: boolean };

export const GROUP_HEALTH_STATUS: Record<GroupHealth, string> = { good: 'healthy', mixed: 'mixed', unhealthy: 'unhealthy' };

export function groupLabel(key: string): string {
  return key === '' ? '(none)' : key;
}

/** Checks bucketed by the server's groups, in the server's order, each group's members in the server's sort order. */
export function membersByGroup(checks: readonly CheckSummary[], groupBy: string): Map<string, CheckSummary[]> {
  const members = new Map<string, CheckSummary[]>();
  for (const check of checks) {
    const key = groupKeyOf(check, groupBy);
    const list = members.get(key);
    if (list === undefined) members.set(key, [check]);
    else list.push(check);
  }
  return members;
}

/**
 * Flat rows for the virtualized table: a header per group and, under an expanded one, its checks. The server sends
 * the checks of the open groups only, so a group just opened has none until the answer that asked for it arrives
 * (`fetching`): its header says it is loading.
 */
export function buildHealthRows(
  checks: readonly CheckSummary[],
  groups: readonly SummaryGroup[],
  groupBy: string | null,
  expanded: ReadonlySet<string>,
  fetching = false,
): HealthRow[] {
  if (groupBy === null) return checks.map((check) => ({ kind: 'check', check, grouped: false }));
  const members = membersByGroup(checks, groupBy);
  const rows: HealthRow[] = [];
  for (const group of groups) {
    const isExpanded = expanded.has(group.key);
    rows.push({ kind: 'group', group, expanded: isExpanded, loading: isExpanded && fetching && !members.has(group.key) });
    if (isExpanded) for (const check of members.get(group.key) ?? []) rows.push({ kind: 'check', check, grouped: true });
  }
  return rows;
}
