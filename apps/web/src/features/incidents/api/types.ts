import type { EvidenceType, IncidentSeverity, RowWith, TableRow, ViewRow } from '@opsdeck/shared';
import type { EvidencePayload, TeamSpec } from './json-columns';

export type { EvidencePayload, LogLine, LogRecord, ResponderClientSettings, TeamSpec } from './json-columns';

import type { PersonRef, TeamRef } from '@/lib/people-refs';

export type { PersonRef, TeamRef } from '@/lib/people-refs';

/** A row of the incident list: the incident with its live responders. */
export type IncidentListItem = Pick<
  TableRow<'incidents'>,
  'id' | 'incident_id' | 'title' | 'type' | 'severity' | 'status' | 'created_by' | 'created_at'
> & { responders: ListResponder[] };

export type ListResponder = Pick<TableRow<'responders'>, 'id' | 'type'> & { person: PersonRef | null; team: TeamRef | null };

export type LinkedCheck = Pick<TableRow<'checks'>, 'id' | 'name' | 'icon' | 'type' | 'status' | 'canary_id'>;

export type LinkedConfig = Pick<ViewRow<'configs'>, 'id' | 'name' | 'type' | 'config_class' | 'health' | 'status'>;

export type LinkedComponent = Pick<TableRow<'components'>, 'id' | 'name' | 'icon' | 'status' | 'topology_id'>;

export type LinkedConfigAnalysis = Pick<
  TableRow<'config_analysis'>,
  'id' | 'analyzer' | 'analysis_type' | 'severity' | 'status' | 'summary' | 'config_id'
>;

export type LinkedConfigChange = Pick<TableRow<'config_changes'>, 'id' | 'change_type' | 'severity' | 'summary' | 'config_id' | 'created_at'>;

/** An alert an incident rule attached as evidence (issue #19); read through the data API's `alerts`. */
export type LinkedAlert = RowWith<
  Pick<TableRow<'alerts'>, 'id' | 'name' | 'status' | 'severity' | 'labels' | 'generator_url' | 'last_received_at'>,
  { labels: Record<string, unknown> | null }
>;

/** The types people add (EVIDENCE_TYPES) and the `alert` an incident rule attaches. */
export type StoredEvidenceType = EvidenceType | 'alert';

/**
 * An evidence as the server sends it (`*` of evidences, with what it links to), before its JSON columns are checked.
 * The page never reads `updated_at`.
 */
export type EvidenceRow = Omit<TableRow<'evidences'>, 'updated_at'> & {
  creator: PersonRef | null;
  check: LinkedCheck | null;
  alert: LinkedAlert | null;
  config: LinkedConfig | null;
  component: LinkedComponent | null;
  config_analysis: LinkedConfigAnalysis | null;
  config_change: LinkedConfigChange | null;
};

/** An evidence with its JSON columns checked. `unreadable` is set when one could not be read, which is then left empty. */
export type Evidence = RowWith<EvidenceRow, { evidence: EvidencePayload | null; properties: Record<string, unknown> }> & { unreadable?: string };

export type Comment = Pick<
  TableRow<'comments'>,
  'id' | 'incident_id' | 'hypothesis_id' | 'responder_id' | 'comment' | 'created_by' | 'external_created_by' | 'created_at'
> & {
  author: PersonRef | null;
  responder: { id: string; team: TeamRef | null } | null;
  /** Set on a comment shown before the server confirmed it. */
  pending?: boolean;
};

export type Hypothesis = Pick<
  TableRow<'hypotheses'>,
  'id' | 'incident_id' | 'parent_id' | 'title' | 'type' | 'status' | 'created_by' | 'created_at'
> & { evidences: Evidence[] };

/** The severity column's check allows `info` and `warning` too; the details page reads it as the five it offers. */
export type IncidentDetail = RowWith<
  Pick<
    TableRow<'incidents'>,
    'id' | 'incident_id' | 'title' | 'description' | 'type' | 'severity' | 'status' | 'created_by' | 'commander_id' | 'communicator_id' | 'created_at' | 'updated_at'
  >,
  { severity: IncidentSeverity | null }
> & {
  creator: PersonRef | null;
  commander: PersonRef | null;
  communicator: PersonRef | null;
  hypotheses: Hypothesis[];
  comments: Comment[];
};

/** The incident as the server sends it, before the JSON columns of its evidence are checked. */
export type IncidentDetailRow = Omit<IncidentDetail, 'hypotheses'> & { hypotheses: (Omit<Hypothesis, 'evidences'> & { evidences: EvidenceRow[] })[] };

/** A team as the server sends it, before its spec is checked. */
export type TeamRow = Pick<TableRow<'teams'>, 'id' | 'name' | 'icon' | 'spec'>;

/** A team with its spec checked; `unreadable` is set when the spec could not be read, which is then null. */
export type TeamWithSpec = RowWith<TeamRow, { spec: TeamSpec | null }> & { unreadable?: string };

/** A responder as the server sends it (`*` of responders, with its team and person), before its JSON columns are checked. */
export type ResponderRow = Omit<TableRow<'responders'>, 'updated_at'> & { team: TeamRow | null; person: PersonRef | null };

/** A responder with its properties and team spec checked; unreadable properties are left empty, the reason in `unreadable`. */
export type Responder = RowWith<ResponderRow, { properties: Record<string, unknown>; team: TeamWithSpec | null }> & { unreadable?: string };

export type IncidentHistoryEntry = Pick<
  TableRow<'incident_histories'>,
  'id' | 'incident_id' | 'type' | 'description' | 'created_by' | 'created_at'
> & {
  creator: PersonRef | null;
  responder: ListResponder | null;
  hypothesis: Pick<TableRow<'hypotheses'>, 'id' | 'title'> | null;
  evidence: Pick<TableRow<'evidences'>, 'id' | 'type' | 'description'> | null;
};
