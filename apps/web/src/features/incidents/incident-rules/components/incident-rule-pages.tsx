import { ResourceDetailPage } from '@/lib/settings-resources/components/resource-detail-page';
import { ResourceListPage } from '@/lib/settings-resources/components/resource-list-page';
import type { SettingsResourceKind } from '@/lib/settings-resources/settings-resource-kind';
import { INCIDENT_RULES_KIND } from '../incident-rules-kind';
import { IncidentRuleSummary } from './incident-rule-summary';

/** Incident rules with the reading of their spec under the editor, whose code loads with these pages. */
const INCIDENT_RULES_WITH_SUMMARY: SettingsResourceKind = { ...INCIDENT_RULES_KIND, specSummary: IncidentRuleSummary };

/** /settings/incident_rules. */
export function IncidentRuleListPage() {
  return <ResourceListPage kind={INCIDENT_RULES_WITH_SUMMARY} />;
}

/** /settings/incident_rules/{id}. */
export function IncidentRuleDetailPage() {
  return <ResourceDetailPage kind={INCIDENT_RULES_WITH_SUMMARY} />;
}
