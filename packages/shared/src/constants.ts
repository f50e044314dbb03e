/** Page sizes offered by every paged table (spec 000 §9). */
export const PAGE_SIZE_OPTIONS = [5, 10, 25, 50, 100, 150, 200, 250, 300, 500, 1000] as const;
export type PageSizeOption = (typeof PAGE_SIZE_OPTIONS)[number];
export const DEFAULT_PAGE_SIZE: PageSizeOption = 50;

export const VIRTUAL_ROW_ESTIMATE_PX = 35;
export const VIRTUAL_OVERSCAN = 10;

export const TOAST_DURATION_MS = 5000;

export const DEBOUNCE_MS = {
  search: 400,
  logsSearch: 500,
  fieldEdit: 500,
  hypothesisStatus: 200,
  hypothesisTitle: 1000,
  lookup: 100,
  resourceSearch: 300,
  responderHover: 1000,
} as const;

/** Cache freshness for agent, label and people lookups, and for the catalog query. */
export const LOOKUP_STALE_TIME_MS = 300_000;
export const CATALOG_STALE_TIME_MS = 300_000;

export const INCIDENT_SEVERITIES = ['low', 'medium', 'high', 'blocker', 'critical'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];

/** The full list, used where analysis results are shown next to incidents. */
export const SEVERITIES = ['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const INCIDENT_TYPES = [
  'cost',
  'availability',
  'performance',
  'security',
  'integration',
  'compliance',
  'technicalDebt',
  'reliability',
] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

export type SeverityColor = 'gray' | 'yellow' | 'green' | 'orange' | 'red';

export function severityColor(severity: string): SeverityColor {
  switch (severity.toLowerCase()) {
    case 'critical':
    case 'blocker':
      return 'red';
    case 'high':
      return 'orange';
    case 'warning':
      return 'yellow';
    case 'low':
    case 'medium':
      return 'green';
    default:
      return 'gray';
  }
}

export type HealthDotColor = 'red' | 'grey' | 'orange' | 'green';

/** Spec 000 §4: anything not named as bad, unknown or warning counts as good. */
export function healthDotColor(status: string | null | undefined): HealthDotColor {
  switch ((status ?? '').toLowerCase()) {
    case 'degraded':
    case 'missing':
    case 'unhealthy':
      return 'red';
    case 'unknown':
    case 'suspended':
      return 'grey';
    case 'warning':
    case 'mixed':
      return 'orange';
    default:
      return 'green';
  }
}

export const AVATAR_STACK_MAX = 5;
export const AVATAR_MAX_INITIALS = 2;
export const RESPONDERS_COLUMN_MAX = 5;

/** The toggle-filter dropdown shows chips below this many selections and counts from it on. */
export const TOGGLE_FILTER_CHIP_LIMIT = 4;

export const COUNT_BADGE_HIGHLIGHT_FROM = 500;

export const RECENT_ABSOLUTE_RANGES_MAX = 5;

export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export const MENU_MAX_WIDTH_PX = 800;

export const HIDE_DELETED_CATALOG_DEFAULT = 'yes';

export const FRONTEND_VERSION = '1.0.748';
