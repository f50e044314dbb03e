/** The limits of the server's canary schema (apps/server health-plugin.ts `canaryBody`), checked before a form is sent. */
export const CANARY_LIMITS = {
  name: 255,
  namespace: 255,
  icon: 255,
  description: 4000,
} as const;
