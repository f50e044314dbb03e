import type { CheckSummary } from './summary-queries';

export type StatusFilter = 'healthy' | 'unhealthy' | 'unknown';
export type SortKey = 'name' | 'canary_name' | 'status' | 'uptime' | 'latency' | 'last_transition_time' | 'last_runtime' | 'type';

export interface ViewOptions {
  statuses: StatusFilter[] | null;
  hidePassing: boolean;
  groupBy: string | null;
  tabBy: string | null;
  tab: string | null;
  sortBy: SortKey | null;
  sortDesc: boolean;
  offset: number;
  limit: number | null;
}

export interface GroupCount {
  key: string;
  count: number;
  healthy: number;
  unhealthy: number;
  unknown: number;
  /** good: all healthy; unhealthy: none healthy; mixed otherwise (spec 001 §4). */
  health: 'good' | 'mixed' | 'unhealthy';
}

export interface SummaryView {
  checks_summary: CheckSummary[];
  totalEntries: number;
  counts: { total: number; healthy: number; unhealthy: number; unknown: number };
  tabs: { key: string; count: number }[];
  groups: GroupCount[];
  labels: Record<string, string[]>;
}

function statusOf(check: CheckSummary): StatusFilter {
  return check.status ?? 'unknown';
}

/** The Group By value of a check (spec 001 §2.2): a fixed field, or else a label key; names group by their prefix before '/'. */
export function groupKeyOf(check: CheckSummary, groupBy: string): string {
  switch (groupBy) {
    case 'canary_name':
      return check.canary_name;
    case 'name':
      return check.name.split('/')[0] ?? check.name;
    case 'description':
      return check.description ?? '';
    case 'type':
      return check.type;
    default:
      return check.labels[groupBy] ?? '';
  }
}

/** The Tab By value: namespace ('none' when unset), agent name, or a label value. */
export function tabKeyOf(check: CheckSummary, tabBy: string): string {
  if (tabBy === 'namespace') return check.namespace === null || check.namespace === '' ? 'none' : check.namespace;
  if (tabBy === 'agent') return check.agent_name ?? 'local';
  return check.labels[tabBy] ?? 'none';
}

function uptimePercent(check: CheckSummary): number {
  const total = check.uptime.passed + check.uptime.failed;
  return total === 0 ? -1 : check.uptime.passed / total;
}

function compare(a: CheckSummary, b: CheckSummary, key: SortKey): number {
  switch (key) {
    case 'status':
      return statusOf(a).localeCompare(statusOf(b));
    case 'uptime':
      return uptimePercent(a) - uptimePercent(b);
    case 'latency':
      return (a.latency.p95 ?? -1) - (b.latency.p95 ?? -1);
    case 'last_transition_time':
    case 'last_runtime':
      return (a[key] ?? '').localeCompare(b[key] ?? '');
    default:
      return a[key].localeCompare(b[key]);
  }
}

function count(checks: CheckSummary[]): { healthy: number; unhealthy: number; unknown: number } {
  const counts = { healthy: 0, unhealthy: 0, unknown: 0 };
  for (const check of checks) counts[statusOf(check)] += 1;
  return counts;
}

/** Tab, status, grouping, sorting and paging over the checks the SQL selected, with the counts each control shows. */
export function buildSummaryView(all: CheckSummary[], options: ViewOptions): SummaryView {
  const labels = new Map<string, Set<string>>();
  for (const check of all) {
    for (const [key, value] of Object.entries(check.labels)) {
      const values = labels.get(key) ?? new Set<string>();
      values.add(value);
      labels.set(key, values);
    }
  }
  const tabs: { key: string; count: number }[] = [];
  let inTab = all;
  if (options.tabBy !== null) {
    const tabBy = options.tabBy;
    const perTab = new Map<string, number>();
    for (const check of all) perTab.set(tabKeyOf(check, tabBy), (perTab.get(tabKeyOf(check, tabBy)) ?? 0) + 1);
    tabs.push({ key: 'All', count: all.length }, ...[...perTab.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => ({ key, count: n })));
    if (options.tab !== null && options.tab !== 'All') inTab = all.filter((check) => tabKeyOf(check, tabBy) === options.tab);
  }
  const counts = { total: inTab.length, ...count(inTab) };
  const statuses = options.statuses;
  let selected = inTab.filter(
    (check) => (statuses === null || statuses.includes(statusOf(check))) && !(options.hidePassing && statusOf(check) === 'healthy'),
  );
  const groups: GroupCount[] = [];
  if (options.groupBy !== null) {
    const groupBy = options.groupBy;
    const perGroup = new Map<string, CheckSummary[]>();
    for (const check of selected) {
      const key = groupKeyOf(check, groupBy);
      perGroup.set(key, [...(perGroup.get(key) ?? []), check]);
    }
    for (const [key, members] of [...perGroup.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const c = count(members);
      groups.push({ key, count: members.length, ...c, health: c.healthy === members.length ? 'good' : c.healthy === 0 ? 'unhealthy' : 'mixed' });
    }
  }
  if (options.sortBy !== null) {
    const key = options.sortBy;
    const direction = options.sortDesc ? -1 : 1;
    selected = [...selected].sort((a, b) => direction * compare(a, b, key) || a.name.localeCompare(b.name));
  }
  const totalEntries = selected.length;
  const page = options.limit === null ? selected.slice(options.offset) : selected.slice(options.offset, options.offset + options.limit);
  return {
    checks_summary: page,
    totalEntries,
    counts,
    tabs,
    groups,
    labels: Object.fromEntries([...labels.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, values]) => [key, [...values].sort()])),
  };
}
