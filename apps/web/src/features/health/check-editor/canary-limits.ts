import { RESOURCE_LIMITS } from '@/lib/settings-resources/settings-resource-kind';

/** The limits of the server's canary schema (apps/server health-plugin.ts `canaryBody`), checked before a form is sent. */
export const CANARY_LIMITS = {
  ...RESOURCE_LIMITS,
  icon: 255,
  description: 4000,
} as const;
