import { INCIDENT_RULE_EXAMPLE_SPEC, incidentRuleSpecJsonSchema, incidentRuleSpecProblems } from '@opsdeck/shared';
import type { SettingsResourceKind } from '@/lib/settings-resources/settings-resource-kind';

/**
 * Incident rules (spec 002 §2.2, issue #19): a CEL filter over checks, components and alerts, the incident a match
 * opens, grouping, auto-resolve and responders (packages/shared/src/incident-rule-spec.ts). The editor checks the spec
 * against the shared schema as it is typed; the server also compiles the filter and templates when saving. The table
 * and its status view take the `incident` resource, so responders and commanders, who write incidents, may edit rules.
 */
export const INCIDENT_RULES_KIND: SettingsResourceKind = {
  table: 'incident_rules',
  title: 'Incident Rules',
  singular: 'Incident Rule',
  resource: 'incident',
  listView: 'incident_rules_with_status',
  service: { kind: 'data-api' },
  tabs: ['spec'],
  hiddenColumns: ['schedule', 'namespace'],
  specSchema: incidentRuleSpecJsonSchema,
  newSpec: INCIDENT_RULE_EXAMPLE_SPEC,
  specProblems: incidentRuleSpecProblems,
};
