import type { LinkedEvidence } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import type { LinkableEvidence } from '@/lib/incident-link/incident-link-slot';

/** An existing hypothesis of the incident, or the title of one the server creates under the first that may have children. */
export type LinkTarget = { hypothesisId: string } | { hypothesisTitle: string };

/** Attaches evidence to an incident in one server transaction, creating the hypothesis first when asked to. */
export function linkEvidence(incidentId: string, target: LinkTarget, evidence: LinkableEvidence): Promise<LinkedEvidence> {
  const hypothesis = 'hypothesisId' in target ? { hypothesis_id: target.hypothesisId } : { hypothesis_title: target.hypothesisTitle };
  return requestJson<LinkedEvidence>(`/api/incidents/${encodeURIComponent(incidentId)}/evidence`, {
    method: 'POST',
    json: { ...hypothesis, evidence },
  });
}
