import { isUiSource, NO_AGENT_ID } from '@/lib/resource-origin/resource-origin';

/**
 * Where an integration comes from (spec 001 §4): made in the UI (editable), or linked to an agent, a component,
 * kubernetes or a config file, which own it; the page shows those as linked and read-only.
 */
export type IntegrationOrigin =
  | { kind: 'ui' }
  | { kind: 'agent'; label: string; href: string }
  | { kind: 'component'; label: string; href: string | null }
  | { kind: 'kubernetes'; label: string }
  | { kind: 'config-file'; label: string }
  | { kind: 'other'; label: string };

export interface IntegrationOriginInput {
  source: string | null | undefined;
  agent_id?: string | null;
  agent?: { id: string; name: string } | null;
}

/** `component:<id>` or `component/<id>`: the component whose definition made the resource. */
const COMPONENT_SOURCE = /^component(?:[:/](.+))?$/i;

export function integrationOrigin({ source, agent_id: agentId, agent }: IntegrationOriginInput): IntegrationOrigin {
  // A resource an agent pushed is the agent's, whatever its source says: an edit here would be overwritten by it.
  if (agentId && agentId !== NO_AGENT_ID) {
    return { kind: 'agent', label: `Agent ${agent?.name ?? agentId}`, href: `/settings/agents?id=${encodeURIComponent(agentId)}` };
  }
  if (isUiSource(source) || source === null || source === undefined) return { kind: 'ui' };
  const component = COMPONENT_SOURCE.exec(source);
  if (component) {
    const id = component[1];
    return { kind: 'component', label: 'Component', href: id === undefined ? null : `/topology/${encodeURIComponent(id)}` };
  }
  if (/^kubernetes/i.test(source)) return { kind: 'kubernetes', label: `Kubernetes (${source})` };
  if (/^configfile$/i.test(source)) return { kind: 'config-file', label: 'Config file' };
  return { kind: 'other', label: source };
}

export function isLinkedOrigin(origin: IntegrationOrigin): boolean {
  return origin.kind !== 'ui';
}
