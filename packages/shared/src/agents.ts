/** How often an agent scrapes its Kubernetes cluster (spec 001 §9). */
export const SCRAPE_INTERVALS = ['1m', '5m', '10m', '30m', '1h', '2h', '6h', '12h', '24h'] as const;
export type ScrapeInterval = (typeof SCRAPE_INTERVALS)[number];
export const DEFAULT_SCRAPE_INTERVAL: ScrapeInterval = '30m';

export interface AgentKubernetesSettings {
  enabled: boolean;
  interval: ScrapeInterval;
}

export interface AgentPushTelemetrySettings {
  enabled: boolean;
  topologyName: string | null;
}

/** An agent as GET /api/agents/:id returns it: never its access token nor the token's hash. */
export interface AgentDetail {
  id: string;
  name: string;
  description: string | null;
  hostname: string | null;
  version: string | null;
  properties: Record<string, string>;
  kubernetes: AgentKubernetesSettings;
  pushTelemetry: AgentPushTelemetrySettings;
  last_seen: string | null;
  last_received: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** What POST /api/agents answers: the only time the access token is ever shown. */
export interface CreatedAgent {
  id: string;
  name: string;
  access_token: string;
}
