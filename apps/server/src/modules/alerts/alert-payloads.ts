import { z } from 'zod';

const labelMap = z.record(z.string(), z.string());
const status = z.enum(['firing', 'resolved']);

/** One alert of Alertmanager's webhook payload (version 4); fields Alertmanager may add later are ignored. */
export const alertmanagerAlertSchema = z.object({
  status,
  labels: labelMap.describe('Identify the alert; alertname is its name and severity its severity'),
  annotations: labelMap.optional(),
  startsAt: z.string().optional().describe('RFC 3339'),
  endsAt: z.string().optional().describe("RFC 3339; Alertmanager sends 0001-01-01T00:00:00Z while the alert fires"),
  generatorURL: z.string().optional().describe('Link back to the alert source (shown as a link only when http or https)'),
  fingerprint: z.string().optional().describe('Alertmanager fingerprint; without one, a sha256 of the sorted labels'),
});

/** Alertmanager's webhook_config payload, version 4 (https://prometheus.io/docs/alerting/latest/configuration/#webhook_config). */
export const alertmanagerBodySchema = z
  .object({
    version: z.string().optional().describe('"4"'),
    groupKey: z.string().optional(),
    truncatedAlerts: z.number().int().optional(),
    status: status.optional(),
    receiver: z.string().optional(),
    groupLabels: labelMap.optional(),
    commonLabels: labelMap.optional(),
    commonAnnotations: labelMap.optional(),
    externalURL: z.string().optional(),
    alerts: z.array(alertmanagerAlertSchema).describe('At most 1,000 alerts per request'),
  })
  .describe('Alertmanager webhook payload, version 4');
export type AlertmanagerBody = z.infer<typeof alertmanagerBodySchema>;

/** One alert of the generic webhook. */
export const genericAlertSchema = z.object({
  name: z.string().optional().describe('Default: labels.alertname'),
  status,
  severity: z.string().optional().describe('Default: labels.severity'),
  labels: labelMap,
  annotations: labelMap.optional(),
  fingerprint: z.string().optional().describe('Default: a sha256 of the sorted labels (with alertname set to name)'),
  startsAt: z.string().optional(),
  endsAt: z.string().optional(),
  generatorURL: z.string().optional(),
});
export type GenericAlert = z.infer<typeof genericAlertSchema>;

export const genericBodySchema = z
  .union([z.object({ alerts: z.array(genericAlertSchema).describe('At most 1,000 alerts per request') }), genericAlertSchema])
  .describe('One alert, or {alerts: [...]}');
export type GenericBody = z.infer<typeof genericBodySchema>;

export const ingestReplySchema = z
  .object({
    accepted: z.number().int().describe('Alerts in the request'),
    firing: z.number().int().describe('Of them, firing'),
    resolved: z.number().int().describe('Of them, resolved'),
  })
  .describe('The alerts were stored; incident rules act on them in the background');
export type IngestReply = z.infer<typeof ingestReplySchema>;
