import { DEFAULT_HYPOTHESIS_STATUS, type IncidentSeverity, type IncidentStatus, type IncidentType } from '@opsdeck/shared';
import { db, silentDb } from '@/lib/api/db';

/** What a new incident starts from when it is created from a configuration item or a topology component (spec 000 §7). */
export type IncidentSource =
  | { kind: 'config'; configId: string; description: string; lines?: string[]; selectedLines?: number[] }
  | { kind: 'topology'; componentId: string; description: string };

export interface NewIncidentInput {
  title: string;
  description: string;
  type: IncidentType;
  severity: IncidentSeverity;
  status: IncidentStatus;
  createdBy: string | null;
  source?: IncidentSource;
  /** Skip the error toasts; the caller deals with a failure itself. */
  silent?: boolean;
}

export interface CreatedIncident {
  id: string;
  incident_id: string;
  rootHypothesisId: string;
}

function sourceEvidence(source: IncidentSource, hypothesisId: string, createdBy: string | null): Record<string, unknown> {
  if (source.kind === 'config') {
    return {
      hypothesis_id: hypothesisId,
      type: 'config',
      config_id: source.configId,
      description: source.description,
      evidence: { lines: source.lines ?? [], selected_lines: source.selectedLines ?? [] },
      created_by: createdBy,
    };
  }
  return { hypothesis_id: hypothesisId, type: 'topology', component_id: source.componentId, description: source.description, created_by: createdBy };
}

/**
 * Creates the incident, then its root hypothesis (same title, type root, status possible), then the evidence of the
 * item it was created from. The creator is commander and communicator until someone else takes over.
 */
export async function createIncident(input: NewIncidentInput): Promise<CreatedIncident> {
  const client = input.silent ? silentDb : db;
  const description = input.description.trim();
  const { data: incident } = await client
    .from('incidents')
    .insert({
      title: input.title.trim(),
      description: description === '' ? null : description,
      type: input.type,
      severity: input.severity,
      status: input.status,
      created_by: input.createdBy,
      commander_id: input.createdBy,
      communicator_id: input.createdBy,
    })
    .select('id,incident_id')
    .single()
    .throwOnError();
  const created: { id: string; incident_id: string } = incident;
  const { data: hypothesis } = await client
    .from('hypotheses')
    .insert({ incident_id: created.id, title: input.title.trim(), type: 'root', status: DEFAULT_HYPOTHESIS_STATUS, created_by: input.createdBy })
    .select('id')
    .single()
    .throwOnError();
  const root: { id: string } = hypothesis;
  if (input.source) {
    await client.from('evidences').insert(sourceEvidence(input.source, root.id, input.createdBy)).throwOnError();
  }
  return { id: created.id, incident_id: created.incident_id, rootHypothesisId: root.id };
}
