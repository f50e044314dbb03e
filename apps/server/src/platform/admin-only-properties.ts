// The list is shared with the Feature Flags screen, which offers these properties' changes to administrators only.
export { ADMIN_ONLY_PROPERTY_PREFIXES, isAdminOnlyProperty } from '@opsdeck/shared';

/**
 * Retention ages are whole days from 1 to 100 years (`audit.retention.days`, `retention.<table>.days`): a fraction of a
 * day let one write empty a table within the hour. The database refuses other values written through the API
 * (migration 0109, OD_RETENTION_DAYS).
 */
export const RETENTION_DAYS_FLOOR = 1;
export const RETENTION_DAYS_CEILING = 36_500;
export const RETENTION_DAYS_PROPERTY = /^(audit\.)?retention\.([a-z0-9_]+\.)*days$/;
