import { AppError } from '../../platform/errors';

export const auditErrors = {
  appendOnly: (method: string) =>
    new AppError(
      403,
      'OD_AUDIT_APPEND_ONLY',
      'The audit log cannot be changed through the API',
      `${method} audit_log`,
      'Audit rows are written by the server for every write and leave only through the retention purge (audit.retention.days)',
    ),
} as const;
