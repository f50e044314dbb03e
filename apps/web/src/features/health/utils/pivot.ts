import type { CheckHealth, CheckSummary } from '../api/types';
import { groupKeyOf, LOCAL_AGENT, MISSING_VALUE } from './grouping';
import { uptimePercentage } from './check-format';

export type PivotBy = 'none' | 'namespace' | 'type' | 'agent' | 'labels';
export type PivotCellType = 'health' | 'uptime' | 'latency';

export const NO_PIVOT: PivotBy = 'none';
export const PIVOT_BY_VALUES: readonly PivotBy[] = ['none', 'namespace', 'type', 'agent', 'labels'];
export const PIVOT_CELL_TYPES: readonly PivotCellType[] = ['health', 'uptime', 'latency'];

export const PIVOT_CELL_OPTIONS: readonly { value: PivotCellType; label: string }[] = [
  { value: 'health', label: 'Health' },
  { value: 'uptime', label: 'Uptime' },
  { value: 'latency', label: 'Latency' },
];

/** A label choice of the Pivot By dropdown carries its key after this prefix; the others are plain PivotBy values. */
const LABEL_OPTION_PREFIX = 'labels:';

/** Pivot By choices (None, Namespace, Type, Agent), then one per label key found on the checks, as Group By lists them. */
export function pivotByOptions(labelKeys: readonly string[]): { value: string; label: string }[] {
  return [
    { value: 'none', label: 'None' },
    { value: 'namespace', label: 'Namespace' },
    { value: 'type', label: 'Type' },
    { value: 'agent', label: 'Agent' },
    ...labelKeys.map((key) => ({ value: `${LABEL_OPTION_PREFIX}${key}`, label: key })),
  ];
}

export function pivotOptionValue(pivotBy: PivotBy, pivotLabel: string): string {
  return pivotBy === 'labels' ? `${LABEL_OPTION_PREFIX}${pivotLabel}` : pivotBy;
}

export function parsePivotOption(value: string): { pivotBy: PivotBy; pivotLabel: string } {
  if (value.startsWith(LABEL_OPTION_PREFIX)) return { pivotBy: 'labels', pivotLabel: value.slice(LABEL_OPTION_PREFIX.length) };
  return { pivotBy: PIVOT_BY_VALUES.find((candidate) => candidate === value) ?? NO_PIVOT, pivotLabel: '' };
}

/** The column of a check: the same values the Tab By tabs use, so a pivot column and a tab hold the same checks. */
export function pivotColumnOf(check: CheckSummary, pivotBy: Exclude<PivotBy, 'none'>, pivotLabel: string): string {
  switch (pivotBy) {
    case 'namespace':
      return check.namespace === null || check.namespace === '' ? MISSING_VALUE : check.namespace;
    case 'type':
      return check.type;
    case 'agent':
      return check.agent_name ?? LOCAL_AGENT;
    case 'labels':
      return check.labels[pivotLabel] ?? MISSING_VALUE;
  }
}

/** The row of a check: its name, or the prefix before '/' when the page groups by name. */
export function pivotRowOf(check: CheckSummary, groupBy: string | null): string {
  return groupBy === 'name' ? groupKeyOf(check, 'name') : check.name;
}

/** Aggregation order of health: a cell shows the worst of its checks; a check that never ran is worse than a passing one. */
const HEALTH_RANK: Record<CheckHealth, number> = { unhealthy: 3, warning: 2, unknown: 1, healthy: 0 };

export interface PivotCell {
  checks: CheckSummary[];
  /** The worst health of the cell's checks. */
  health: CheckHealth;
  /** The lowest uptime percentage among checks with runs; null when none ran in the range. */
  uptime: number | null;
  /** The highest p95 latency in ms; null when no check has one. */
  p95: number | null;
}

export interface PivotRow {
  key: string;
  /** One entry per column, in the order of PivotMatrix.columns; undefined where no check of the row has that value. */
  cells: (PivotCell | undefined)[];
}

export interface PivotMatrix {
  columns: string[];
  rows: PivotRow[];
}

function addToCell(cell: PivotCell | undefined, check: CheckSummary): PivotCell {
  const uptime = uptimePercentage(check.uptime);
  const p95 = check.latency.p95;
  if (cell === undefined) return { checks: [check], health: check.health, uptime, p95 };
  cell.checks.push(check);
  if (HEALTH_RANK[check.health] > HEALTH_RANK[cell.health]) cell.health = check.health;
  if (uptime !== null && (cell.uptime === null || uptime < cell.uptime)) cell.uptime = uptime;
  if (p95 !== null && (cell.p95 === null || p95 > cell.p95)) cell.p95 = p95;
  return cell;
}

const byText = (a: string, b: string): number => a.localeCompare(b);

/**
 * The matrix of the pivot view in one pass over the checks: a row per check name (or name prefix), a column per
 * value of the dimension, both sorted alphabetically; each cell aggregates the checks it holds.
 */
export function buildPivotMatrix(checks: readonly CheckSummary[], pivotBy: Exclude<PivotBy, 'none'>, pivotLabel: string, groupBy: string | null): PivotMatrix {
  const byRow = new Map<string, Map<string, PivotCell>>();
  const columnSet = new Set<string>();
  for (const check of checks) {
    const rowKey = pivotRowOf(check, groupBy);
    const column = pivotColumnOf(check, pivotBy, pivotLabel);
    columnSet.add(column);
    let row = byRow.get(rowKey);
    if (row === undefined) {
      row = new Map();
      byRow.set(rowKey, row);
    }
    row.set(column, addToCell(row.get(column), check));
  }
  const columns = [...columnSet].sort(byText);
  const rows = [...byRow.keys()].sort(byText).map((key) => {
    const cells = byRow.get(key) ?? new Map<string, PivotCell>();
    return { key, cells: columns.map((column) => cells.get(column)) };
  });
  return { columns, rows };
}
