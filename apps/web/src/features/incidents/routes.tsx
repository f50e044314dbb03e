import type { RouteObject } from 'react-router';
import { FeatureArea } from '@/lib/feature-flags/feature-area';
import { lazyPage } from '@/lib/lazy-page';
import { settingsResourceRoutes } from '@/lib/settings-resources/settings-resource-routes';
import { INCIDENT_RULES_KIND } from './incident-rules/incident-rules-kind';

const IncidentDetailPage = lazyPage(() => import('./components/incident-detail-page').then((module) => module.IncidentDetailPage));
const IncidentListPage = lazyPage(() => import('./components/incident-list-page').then((module) => module.IncidentListPage));
const IncidentRuleListPage = lazyPage(() => import('./incident-rules/components/incident-rule-pages').then((module) => module.IncidentRuleListPage));
const IncidentRuleDetailPage = lazyPage(() => import('./incident-rules/components/incident-rule-pages').then((module) => module.IncidentRuleDetailPage));

/** The area is off when `incidents.disable` is true: its pages say so instead of rendering. */
export const incidentsRoutes: RouteObject[] = [
  {
    path: 'incidents',
    element: (
      <FeatureArea feature="incidents" resource="incident">
        <IncidentListPage />
      </FeatureArea>
    ),
  },
  {
    path: 'incidents/:id',
    element: (
      <FeatureArea feature="incidents" resource="incident">
        <IncidentDetailPage />
      </FeatureArea>
    ),
  },
  // Settings pages (/settings/incident_rules) guarded like every settings table, not wrapped in the incidents area.
  ...settingsResourceRoutes(INCIDENT_RULES_KIND, { list: <IncidentRuleListPage />, detail: <IncidentRuleDetailPage /> }),
];
