import { canarySpecJsonSchema } from '@opsdeck/shared';
import type { SettingsResourceKind } from '@/lib/settings-resources/settings-resource-kind';

/**
 * Health checks in settings: canaries go through the canary service, which checks the spec and reschedules. Their
 * Spec tab is the check form of `CanaryForm`, which the canary pages add.
 */
export const CANARIES_KIND: SettingsResourceKind = {
  table: 'canaries',
  title: 'Health Checks',
  singular: 'Health Check',
  resource: 'canaries',
  listView: 'canaries_with_status',
  service: { kind: 'service', path: '/api/canary/canaries' },
  tabs: ['spec', 'jobHistory'],
  hiddenColumns: ['namespace'],
  specSchema: canarySpecJsonSchema,
};
