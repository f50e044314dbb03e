/** The alerts module as the rest of the server sees it: the ingestion routes. */
export { alertsPlugin } from './alerts-plugin';
export { ALERT_LIMITS } from './alert-errors';
export { alertsFromAlertmanager, alertsFromWebhook, ingestAlerts, labelFingerprint, type NormalizedAlert } from './alert-ingest';
