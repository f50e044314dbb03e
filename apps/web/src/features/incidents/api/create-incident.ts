import type { CreatedIncident, CreateIncidentBody } from '@opsdeck/shared';
import type { LinkableEvidence } from '@/lib/incident-link/incident-link-slot';
import { requestJson } from '@/lib/api/http';

/** What a new incident starts from when it is created from a configuration item or a topology component (spec 000 §7). */
export type IncidentSource =
  | { kind: 'config'; configId: string; description: string; lines?: string[]; selectedLines?: number[] }
  | { kind: 'topology'; componentId: string; description: string };

export function sourceEvidence(source: IncidentSource): LinkableEvidence {
  if (source.kind === 'config') {
    return {
      type: 'config',
      config_id: source.configId,
      description: source.description,
      evidence: { lines: source.lines ?? [], selected_lines: source.selectedLines ?? [] },
    };
  }
  return { type: 'topology', component_id: source.componentId, description: source.description };
}

/**
 * Creates the incident, its root hypothesis (same title, type root, status possible) and the evidence, if any (the
 * item it was opened from, or the evidence being linked), in one server transaction. The server makes the caller
 * creator, commander and communicator.
 */
export function createIncident(body: CreateIncidentBody): Promise<CreatedIncident> {
  return requestJson<CreatedIncident>('/api/incidents', { method: 'POST', json: body });
}
