import { AppError } from '../../platform/errors';

/** The limits of one ingestion request: a body of 1 MiB at most, holding 1,000 alerts at most. */
export const ALERT_LIMITS = {
  bodyBytes: 1024 * 1024,
  alertsPerRequest: 1000,
  labelsPerAlert: 64,
  labelKeyLength: 128,
  labelValueLength: 1024,
  annotationValueLength: 8192,
  nameLength: 256,
  fingerprintLength: 256,
  generatorUrlLength: 2048,
} as const;

/** The coded refusals of alert ingestion; `details` names the alert and field at fault. */
export const alertErrors = {
  bodyTooLarge: (bytes: number) =>
    new AppError(
      413,
      'OD_ALERTS_TOO_LARGE',
      `The alert payload is ${bytes} bytes; at most ${ALERT_LIMITS.bodyBytes} are accepted`,
      'body',
      'Send fewer alerts per request (Alertmanager: lower max_alerts in the webhook_config)',
    ),
  tooMany: (count: number) =>
    new AppError(
      413,
      'OD_ALERTS_TOO_MANY',
      `The payload holds ${count} alerts; at most ${ALERT_LIMITS.alertsPerRequest} are accepted per request`,
      'alerts',
      'Split the alerts over several requests (Alertmanager: max_alerts in the webhook_config)',
    ),
  invalid: (field: string, problem: string) =>
    new AppError(400, 'OD_ALERT_INVALID', `An alert is not valid: ${field} ${problem}`, field, 'See docs/alerts.md for the payload fields and their limits'),
};
