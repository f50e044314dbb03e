import type { CheckHealth, CheckSummary } from '@opsdeck/shared';

export type { CheckHealth, CheckSummary };

/** good: all healthy; unhealthy: none healthy nor warning; mixed otherwise (spec 001 §4). */
export type GroupHealth = 'good' | 'mixed' | 'unhealthy';

export interface SummaryGroup {
  key: string;
  count: number;
  healthy: number;
  unhealthy: number;
  warning: number;
  unknown: number;
  health: GroupHealth;
}

export interface HealthSummary {
  checks_summary: CheckSummary[];
  /** Checks matching every filter, before paging. */
  totalEntries: number;
  /** Counts inside the selected tab, before the status filters. */
  counts: { total: number; healthy: number; unhealthy: number; warning: number; unknown: number };
  /** 'All' first, then the tab keys alphabetically; each counts the checks passing every filter, the status ones included. */
  tabs: { key: string; count: number }[];
  groups: SummaryGroup[];
  /** Every label key with its values on the checks in scope, whatever the search and label filters: the filter options. */
  labels: Record<string, string[]>;
}

export interface CheckSeriesPoint {
  time: string;
  passed: number;
  failed: number;
  duration_avg: number | null;
  duration_max: number | null;
}

export interface CheckDetail {
  check: CheckSummary & { spec: Record<string, unknown>; spec_yaml: string };
  uptime: { passed: number; failed: number; percentage: number | null };
  latency: { p95: number | null; p97: number | null; p99: number | null };
  series: { bucket: string; points: CheckSeriesPoint[] };
  relationships: {
    configs: { id: string; name: string; type: string }[];
    components: { id: string; name: string; icon: string | null }[];
  };
}

/** A row of check_statuses (spec 001 §3 'Status-check history entry'). */
export interface CheckStatusEntry {
  check_id: string;
  time: string;
  status: boolean;
  duration: number | null;
  message: string | null;
  error: string | null;
}
