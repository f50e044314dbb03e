/**
 * The audit trail (#19): the global hook recording every API write, the values it keeps and the ones it never keeps,
 * the append-only table's API rules and its retention.
 */
export { auditPlugin } from './audit-plugin';
export { auditWriterOf, registerAuditHook } from './audit-hook';
export type { AuditRecordInput } from './audit-writer';
export type { RouteAuditConfig } from './audit-detail';
export { changesOf, fieldsOf, scrubValue } from './audit-values';
export { AUDIT_RETENTION_PROPERTY, DEFAULT_AUDIT_RETENTION_DAYS, purgeAuditLog } from './audit-retention';
