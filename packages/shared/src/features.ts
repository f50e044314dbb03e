export const FEATURES = [
  'topology',
  'health',
  'incidents',
  'config',
  'logs',
  'playbooks',
  'agents',
  'settings.connections',
  'settings.users',
  'settings.teams',
  'settings.rules',
  'settings.config_scraper',
  'settings.topology',
  'settings.health',
  'settings.job_history',
  'settings.feature_flags',
  'settings.logging_backends',
  'settings.event_queue_status',
  'settings.organization_profile',
  'settings.notifications',
  'settings.playbooks',
  'settings.integrations',
  'settings.audit',
] as const;
export type Feature = (typeof FEATURES)[number];

/** A settings area that is switched off whenever its parent area is (spec 000 §4). */
export const FEATURE_PARENTS: Readonly<Partial<Record<Feature, Feature>>> = {
  'settings.config_scraper': 'config',
  'settings.topology': 'topology',
  'settings.health': 'health',
  'settings.job_history': 'health',
  'settings.logging_backends': 'logs',
};

export const FEATURE_DISABLE_SUFFIX = '.disable';

export function featureDisableProperty(feature: string): string {
  return `${feature}${FEATURE_DISABLE_SUFFIX}`;
}

export interface PropertyLike {
  name: string;
  value: string | null;
}

/** The set of features disabled by `{feature}.disable = 'true'`, parents cascading to their children. */
export function disabledFeatures(properties: readonly PropertyLike[]): Set<string> {
  const disabled = new Set<string>();
  for (const property of properties) {
    if (property.name.endsWith(FEATURE_DISABLE_SUFFIX) && property.value?.trim().toLowerCase() === 'true') {
      disabled.add(property.name.slice(0, -FEATURE_DISABLE_SUFFIX.length));
    }
  }
  for (const [child, parent] of Object.entries(FEATURE_PARENTS)) {
    if (parent !== undefined && disabled.has(parent)) disabled.add(child);
  }
  return disabled;
}

export function isFeatureEnabled(feature: string, disabled: ReadonlySet<string>): boolean {
  return !disabled.has(feature);
}
