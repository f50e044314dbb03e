import type { SettingsResourceKind } from '@/lib/settings-resources/settings-resource-kind';

/**
 * Teams (spec 002 §2.2, §3): a name, an icon and a spec (responder clients, notification channels), managed on the
 * Manage Team tab; written through the data API, where deleting one only marks it deleted (migration 0103). The
 * `database` resource guards them, so editors and admins manage teams and their members.
 */
export const TEAMS_KIND: SettingsResourceKind = {
  table: 'teams',
  title: 'Teams',
  singular: 'Team',
  resource: 'database',
  listView: 'teams_with_status',
  service: { kind: 'data-api' },
  tabs: ['manageTeam', 'spec'],
  // Spec 002 §2.2 hides Schedule and Namespace; the job columns and Tags are left out too (#34 item 21): a team has no
  // job and no labels, and its list shows Members and Channels instead (team-columns.tsx).
  hiddenColumns: ['schedule', 'namespace', 'job_status', 'last_runtime', 'job_last_failed', 'tags'],
  hasNamespace: false,
  hasLabels: false,
  absentFields: ['namespace', 'labels'],
};
