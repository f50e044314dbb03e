import type {
  EvidenceType,
  HypothesisStatus,
  HypothesisType,
  IncidentSeverity,
  IncidentStatus,
  IncidentType,
  ResponderKind,
} from '@opsdeck/shared';
import type { EvidencePayload, TeamSpec } from './json-columns';

export type { EvidencePayload, LogLine, LogRecord, ResponderClientSettings, TeamSpec } from './json-columns';

import type { PersonRef, TeamRef } from '@/lib/people-refs';

export type { PersonRef, TeamRef } from '@/lib/people-refs';

/** A row of the incident list: the incident with its live responders. */
export interface IncidentListItem {
  id: string;
  incident_id: string;
  title: string;
  type: IncidentType;
  severity: IncidentSeverity | null;
  status: IncidentStatus;
  created_by: string | null;
  created_at: string;
  responders: ListResponder[];
}

export interface ListResponder {
  id: string;
  type: ResponderKind;
  person: PersonRef | null;
  team: TeamRef | null;
}

export interface LinkedCheck {
  id: string;
  name: string;
  icon: string | null;
  type: string;
  status: string | null;
  canary_id: string;
}

export interface LinkedConfig {
  id: string;
  name: string;
  type: string;
  config_class: string;
  health: string | null;
  status: string | null;
}

export interface LinkedComponent {
  id: string;
  name: string;
  icon: string | null;
  status: string;
  topology_id: string | null;
}

export interface LinkedConfigAnalysis {
  id: string;
  analyzer: string;
  analysis_type: string;
  severity: string | null;
  status: string;
  summary: string | null;
  config_id: string;
}

export interface LinkedConfigChange {
  id: string;
  change_type: string;
  severity: string | null;
  summary: string | null;
  config_id: string;
  created_at: string;
}

/** An alert an incident rule attached as evidence (issue #19); read through the data API's `alerts`. */
export interface LinkedAlert {
  id: string;
  name: string;
  status: string;
  severity: string | null;
  labels: Record<string, unknown> | null;
  generator_url: string | null;
  last_received_at: string;
}

/** The types people add (EVIDENCE_TYPES) and the `alert` an incident rule attaches. */
export type StoredEvidenceType = EvidenceType | 'alert';

export interface Evidence {
  id: string;
  hypothesis_id: string;
  type: StoredEvidenceType;
  description: string | null;
  definition_of_done: boolean;
  done: boolean;
  script: string | null;
  evidence: EvidencePayload | null;
  properties: Record<string, unknown>;
  config_id: string | null;
  config_analysis_id: string | null;
  config_change_id: string | null;
  component_id: string | null;
  check_id: string | null;
  alert_id?: string | null;
  created_by: string | null;
  created_at: string;
  creator: PersonRef | null;
  check: LinkedCheck | null;
  alert?: LinkedAlert | null;
  config: LinkedConfig | null;
  component: LinkedComponent | null;
  config_analysis: LinkedConfigAnalysis | null;
  config_change: LinkedConfigChange | null;
  /** Set when `evidence` or `properties` could not be read; the unreadable column is then left empty. */
  unreadable?: string;
}

/** An evidence as the server sends it, before its JSON columns are checked. */
export type EvidenceRow = Omit<Evidence, 'evidence' | 'properties' | 'unreadable'> & { evidence: unknown; properties: unknown };

export interface Comment {
  id: string;
  incident_id: string;
  hypothesis_id: string | null;
  responder_id: string | null;
  comment: string;
  created_by: string | null;
  external_created_by: string | null;
  created_at: string;
  author: PersonRef | null;
  responder: { id: string; team: TeamRef | null } | null;
  /** Set on a comment shown before the server confirmed it. */
  pending?: boolean;
}

export interface Hypothesis {
  id: string;
  incident_id: string;
  parent_id: string | null;
  title: string | null;
  type: HypothesisType;
  status: HypothesisStatus | null;
  created_by: string | null;
  created_at: string;
  evidences: Evidence[];
}

export interface IncidentDetail {
  id: string;
  incident_id: string;
  title: string;
  description: string | null;
  type: IncidentType;
  severity: IncidentSeverity | null;
  status: IncidentStatus;
  created_by: string | null;
  commander_id: string | null;
  communicator_id: string | null;
  created_at: string;
  updated_at: string;
  creator: PersonRef | null;
  commander: PersonRef | null;
  communicator: PersonRef | null;
  hypotheses: Hypothesis[];
  comments: Comment[];
}

/** The incident as the server sends it, before the JSON columns of its evidence are checked. */
export type IncidentDetailRow = Omit<IncidentDetail, 'hypotheses'> & { hypotheses: (Omit<Hypothesis, 'evidences'> & { evidences: EvidenceRow[] })[] };

export interface TeamWithSpec extends TeamRef {
  spec: TeamSpec | null;
  /** Set when `spec` could not be read; `spec` is then null. */
  unreadable?: string;
}

/** A team as the server sends it, before its spec is checked. */
export type TeamRow = TeamRef & { spec: unknown };

export interface Responder {
  id: string;
  incident_id: string;
  type: ResponderKind;
  team_id: string | null;
  person_id: string | null;
  created_by: string | null;
  external_id: string | null;
  properties: Record<string, unknown>;
  created_at: string;
  acknowledge_time: string | null;
  signoff_time: string | null;
  close_time: string | null;
  deleted_at: string | null;
  team: TeamWithSpec | null;
  person: PersonRef | null;
  /** Set when `properties` could not be read; they are then empty. */
  unreadable?: string;
}

/** A responder as the server sends it, before its JSON columns are checked. */
export type ResponderRow = Omit<Responder, 'properties' | 'team' | 'unreadable'> & { properties: unknown; team: TeamRow | null };

export interface IncidentHistoryEntry {
  id: string;
  incident_id: string;
  type: string;
  description: string | null;
  created_by: string | null;
  created_at: string;
  creator: PersonRef | null;
  responder: { id: string; type: ResponderKind; person: PersonRef | null; team: TeamRef | null } | null;
  hypothesis: { id: string; title: string | null } | null;
  evidence: { id: string; type: EvidenceType; description: string | null } | null;
}
