import type {
  EvidenceType,
  HypothesisStatus,
  HypothesisType,
  IncidentSeverity,
  IncidentStatus,
  IncidentType,
  ResponderKind,
} from '@opsdeck/shared';

export interface PersonRef {
  id: string;
  name: string;
  avatar: string | null;
}

export interface TeamRef {
  id: string;
  name: string;
  icon: string | null;
}

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

/** The inner payload of an evidence; which fields are set depends on its type. */
export interface EvidencePayload {
  comment?: string;
  lines?: string[];
  selected_lines?: number[];
  start?: string;
  includeMessages?: boolean;
  configName?: string;
  id?: string;
}

export interface Evidence {
  id: string;
  hypothesis_id: string;
  type: EvidenceType;
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
  created_by: string | null;
  created_at: string;
  creator: PersonRef | null;
  check: LinkedCheck | null;
  config: LinkedConfig | null;
  component: LinkedComponent | null;
  config_analysis: LinkedConfigAnalysis | null;
  config_change: LinkedConfigChange | null;
}

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

export interface ResponderClientSettings {
  linkUrl?: string;
  connection?: string;
  defaults?: Record<string, string>;
  [field: string]: unknown;
}

export interface TeamWithSpec extends TeamRef {
  spec: { responder_clients?: Record<string, ResponderClientSettings | null> } | null;
}

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
}

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
