import { z } from 'zod';

/** How often an agent scrapes its Kubernetes cluster (spec 001 §9). */
export const SCRAPE_INTERVALS = ['1m', '5m', '10m', '30m', '1h', '2h', '6h', '12h', '24h'] as const;
export type ScrapeInterval = (typeof SCRAPE_INTERVALS)[number];
export const DEFAULT_SCRAPE_INTERVAL: ScrapeInterval = '30m';

export const agentKubernetesSettingsSchema = z.object({ enabled: z.boolean(), interval: z.enum(SCRAPE_INTERVALS) });
export type AgentKubernetesSettings = z.infer<typeof agentKubernetesSettingsSchema>;

export const agentPushTelemetrySettingsSchema = z.object({ enabled: z.boolean(), topologyName: z.string().nullable() });
export type AgentPushTelemetrySettings = z.infer<typeof agentPushTelemetrySettingsSchema>;

/** An agent as GET /api/agents/:id returns it: never its access token nor the token's hash. */
export const agentDetailSchema = z.object({
  id: z.guid(),
  name: z.string(),
  description: z.string().nullable(),
  hostname: z.string().nullable(),
  version: z.string().nullable(),
  properties: z.record(z.string(), z.string()),
  kubernetes: agentKubernetesSettingsSchema,
  pushTelemetry: agentPushTelemetrySettingsSchema,
  last_seen: z.string().nullable(),
  last_received: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AgentDetail = z.infer<typeof agentDetailSchema>;

/** What POST /api/agents answers: the only time the access token is ever shown. */
export const createdAgentSchema = z.object({ id: z.guid(), name: z.string(), access_token: z.string() });
export type CreatedAgent = z.infer<typeof createdAgentSchema>;
