import { z } from 'zod';
import { DEFAULT_SCRAPE_INTERVAL, SCRAPE_INTERVALS, type AgentKubernetesSettings, type AgentPushTelemetrySettings } from '@opsdeck/shared';

export const kubernetesSettings = z.object({
  enabled: z.boolean(),
  interval: z.enum(SCRAPE_INTERVALS).default(DEFAULT_SCRAPE_INTERVAL),
});

export const pushTelemetrySettings = z.object({
  enabled: z.boolean(),
  topologyName: z
    .string()
    .trim()
    .max(255)
    .nullable()
    .optional()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value)),
});

/** The `agents.settings` document; each part is optional so a write may carry only the part it changes. */
export const agentSettings = z.object({ kubernetes: kubernetesSettings.optional(), pushTelemetry: pushTelemetrySettings.optional() }).strict();
export type AgentSettings = z.infer<typeof agentSettings>;

const DEFAULT_KUBERNETES: AgentKubernetesSettings = { enabled: false, interval: DEFAULT_SCRAPE_INTERVAL };
const DEFAULT_PUSH_TELEMETRY: AgentPushTelemetrySettings = { enabled: false, topologyName: null };

/**
 * The settings as the API shows them. The column is also writable through the data API, so a stored part that does
 * not parse reads as its default rather than failing every read of the agent.
 */
export function readSettings(stored: unknown): { kubernetes: AgentKubernetesSettings; pushTelemetry: AgentPushTelemetrySettings } {
  const record = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const kubernetes = kubernetesSettings.safeParse(record.kubernetes);
  const pushTelemetry = pushTelemetrySettings.safeParse(record.pushTelemetry);
  return {
    kubernetes: kubernetes.success ? kubernetes.data : DEFAULT_KUBERNETES,
    pushTelemetry: pushTelemetry.success ? pushTelemetry.data : DEFAULT_PUSH_TELEMETRY,
  };
}

/** One line per problem, with the path of the offending value, for the `details` of a 400. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `/settings/${issue.path.join('/')} ${issue.message}`.trim()).join('; ');
}
