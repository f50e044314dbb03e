import { Network, ScanSearch, ScrollText, type LucideIcon } from 'lucide-react';
import type { SettingsResourceKind } from '@/lib/settings-resources/settings-resource-kind';
import { CONFIG_SCRAPERS_KIND, LOGGING_BACKENDS_KIND, TOPOLOGIES_KIND } from './integration-kinds';

export const INTEGRATIONS_PATH = '/settings/integrations';
export const INTEGRATIONS_TITLE = 'Integrations';

/** The `integration_type` values of integrations_with_status, which are also the path segment of a detail page. */
export const INTEGRATION_TYPES = ['topologies', 'scrapers', 'logging_backends'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

export interface IntegrationTypeInfo {
  /** The settings kind whose table, form and job history serve integrations of this type. */
  kind: SettingsResourceKind;
  label: string;
  icon: LucideIcon;
}

const INFO: Readonly<Record<IntegrationType, IntegrationTypeInfo>> = {
  topologies: { kind: TOPOLOGIES_KIND, label: 'Topology', icon: Network },
  scrapers: { kind: CONFIG_SCRAPERS_KIND, label: 'Catalog Scraper', icon: ScanSearch },
  logging_backends: { kind: LOGGING_BACKENDS_KIND, label: 'Log Backend', icon: ScrollText },
};

export function isIntegrationType(value: string | null | undefined): value is IntegrationType {
  return (INTEGRATION_TYPES as readonly (string | null | undefined)[]).includes(value);
}

/** What serves an integration of this type; null for a type this page does not know (spec 001 §8 'Unknown type'). */
export function integrationTypeInfo(type: string | null | undefined): IntegrationTypeInfo | null {
  return isIntegrationType(type) ? INFO[type] : null;
}

export function integrationPath(type: string, id: string): string {
  return `${INTEGRATIONS_PATH}/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;
}
