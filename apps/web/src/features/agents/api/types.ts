import type { AgentKubernetesSettings, AgentPushTelemetrySettings } from '@opsdeck/shared';

export type { AgentDetail, CreatedAgent } from '@opsdeck/shared';

/** What the editor sends on update; the name is fixed once the agent exists. */
export interface AgentUpdateInput {
  description: string | null;
  properties: Record<string, string>;
  kubernetes: AgentKubernetesSettings;
  pushTelemetry: AgentPushTelemetrySettings;
}

/** What the editor sends on create. */
export interface AgentCreateInput extends AgentUpdateInput {
  name: string;
}
