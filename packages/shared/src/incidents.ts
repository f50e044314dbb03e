import { INCIDENT_SEVERITIES, INCIDENT_TYPES, SEVERITIES, type IncidentSeverity, type IncidentType } from './constants';

/** Spec 000 §4: incident statuses in display order. */
export const INCIDENT_STATUSES = ['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const DEFAULT_INCIDENT_STATUS: IncidentStatus = 'open';
export const DEFAULT_INCIDENT_SEVERITY: IncidentSeverity = 'low';
export const DEFAULT_INCIDENT_TYPE: IncidentType = 'availability';
/** The Details form shows this severity for an incident that has none. */
export const DETAILS_FALLBACK_SEVERITY: IncidentSeverity = 'high';

/** The list's Status filter starts here; 'all' means no filter on any list filter. */
export const INCIDENT_LIST_DEFAULT_STATUS_FILTER: IncidentStatus = 'open';
export const FILTER_ALL = 'all';

export function isIncidentStatus(value: string): value is IncidentStatus {
  return (INCIDENT_STATUSES as readonly string[]).includes(value);
}

export function isIncidentSeverity(value: string): value is IncidentSeverity {
  return (INCIDENT_SEVERITIES as readonly string[]).includes(value);
}

/**
 * Where a severity stands in the order of spec 000 (info lowest, critical highest), counted from 1; no severity is 0.
 * The incidents table stores the same rank in `severity_rank` (migration 0070) so lists sort and page by it.
 */
export function severityRank(severity: string | null): number {
  return (SEVERITIES as readonly (string | null)[]).indexOf(severity) + 1;
}

export function isIncidentType(value: string): value is IncidentType {
  return (INCIDENT_TYPES as readonly string[]).includes(value);
}

/** The transition table of spec 000 §4; every status may stay where it is. The database enforces the same table. */
const STATUS_TARGETS: Readonly<Record<IncidentStatus, readonly IncidentStatus[]>> = {
  new: INCIDENT_STATUSES,
  open: ['open', 'investigating', 'mitigated', 'resolved', 'closed'],
  investigating: ['investigating', 'mitigated', 'resolved', 'closed'],
  mitigated: ['mitigated', 'resolved', 'closed', 'open'],
  resolved: ['resolved', 'closed', 'open'],
  closed: ['closed', 'open'],
};

export function allowedStatusTargets(from: IncidentStatus): readonly IncidentStatus[] {
  return STATUS_TARGETS[from];
}

export function canChangeStatus(from: IncidentStatus, to: IncidentStatus): boolean {
  return STATUS_TARGETS[from].includes(to);
}

/** Choosing one of these first offers to add contributing factors to the definition of done. */
export const STATUSES_ASKING_FOR_DEFINITION_OF_DONE: readonly IncidentStatus[] = ['mitigated', 'resolved'];

export function asksForDefinitionOfDone(target: IncidentStatus): boolean {
  return STATUSES_ASKING_FOR_DEFINITION_OF_DONE.includes(target);
}

/**
 * The detail header button (spec 000 §4: Close when the status is open, otherwise Reopen; it switches between open and
 * closed), read with "open" as "not closed" (ADR 0081): an incident being investigated, mitigated or resolved is still
 * open to its responders, and offering to reopen it would read as if it had been closed. Close on every status but
 * closed, whose button is Reopen.
 */
export function headerStatusAction(status: IncidentStatus): { label: 'Close' | 'Reopen'; target: IncidentStatus } {
  return status === 'closed' ? { label: 'Reopen', target: 'open' } : { label: 'Close', target: 'closed' };
}

export const HYPOTHESIS_STATUSES = ['proven', 'likely', 'possible', 'unlikely', 'improbable', 'disproven'] as const;
export type HypothesisStatus = (typeof HYPOTHESIS_STATUSES)[number];
export const DEFAULT_HYPOTHESIS_STATUS: HypothesisStatus = 'possible';
/** What the inline status picker shows for a hypothesis without a status. */
export const HYPOTHESIS_PICKER_FALLBACK_STATUS: HypothesisStatus = 'likely';
export const DISPROVEN_STATUS: HypothesisStatus = 'disproven';

export const HYPOTHESIS_TYPES = ['root', 'factor', 'solution'] as const;
export type HypothesisType = (typeof HYPOTHESIS_TYPES)[number];
export const DEFAULT_HYPOTHESIS_TYPE: HypothesisType = 'root';
export const EMPTY_HYPOTHESIS_TITLE = '(no title)';

const CHILD_TYPE: Readonly<Record<HypothesisType, HypothesisType | null>> = { root: 'factor', factor: 'solution', solution: null };

/** root leads to factor, factor to solution; a solution has no child. */
export function childHypothesisType(parent: HypothesisType): HypothesisType | null {
  return CHILD_TYPE[parent];
}

export const EVIDENCE_TYPES = ['log', 'config', 'topology', 'check', 'config_analysis', 'config_change', 'comment'] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

export function isEvidenceType(value: string): value is EvidenceType {
  return (EVIDENCE_TYPES as readonly string[]).includes(value);
}

/** Evidence whose linked item has a live state the server can evaluate for an automatic definition of done. */
export const AUTOMATIC_DEFINITION_OF_DONE_TYPES = ['check', 'topology', 'config', 'config_analysis'] as const;
export type AutomaticDefinitionOfDoneType = (typeof AUTOMATIC_DEFINITION_OF_DONE_TYPES)[number];

export function isAutomaticDefinitionOfDoneType(value: string): value is AutomaticDefinitionOfDoneType {
  return (AUTOMATIC_DEFINITION_OF_DONE_TYPES as readonly string[]).includes(value);
}

export interface ScriptShortcut {
  label: string;
  script: string;
}

/** Ready-made scripts the script step can start from (spec 000 §2). */
export const DEFINITION_OF_DONE_SHORTCUTS: Readonly<Partial<Record<AutomaticDefinitionOfDoneType, readonly ScriptShortcut[]>>> = {
  topology: [{ label: 'Component is Health', script: 'status == healthy' }],
};

/**
 * The script the server evaluates for an automatic definition of done without one, and the script step's suggestion.
 * A check must have been healthy for more than five minutes; an analysis must be resolved.
 */
export const DEFINITION_OF_DONE_DEFAULT_SCRIPTS: Readonly<Record<AutomaticDefinitionOfDoneType, string>> = {
  check: 'status == healthy && age > duration("5m")',
  topology: 'status == healthy',
  config: 'health == healthy',
  config_analysis: 'status == resolved',
};

export const LOG_EVIDENCE_CONTEXT_LINES = 3;

/**
 * The indexes of the log lines a log evidence keeps: every selected line with up to three lines either side, in order
 * and without duplicates.
 */
export function logEvidenceLineIndexes(lineCount: number, selected: readonly number[]): number[] {
  const keep = new Set<number>();
  for (const index of selected) {
    if (!Number.isInteger(index) || index < 0 || index >= lineCount) continue;
    const from = Math.max(0, index - LOG_EVIDENCE_CONTEXT_LINES);
    const to = Math.min(lineCount - 1, index + LOG_EVIDENCE_CONTEXT_LINES);
    for (let i = from; i <= to; i += 1) keep.add(i);
  }
  return [...keep].sort((a, b) => a - b);
}

export const RESPONDER_KINDS = ['person', 'system'] as const;
export type ResponderKind = (typeof RESPONDER_KINDS)[number];

export const RESPONDER_TYPES = [
  'email',
  'jira',
  'service_now',
  'ca',
  'redhat',
  'aws_support',
  'aws_ams_services_request',
  'vmware',
  'oracle',
  'ms_planner',
  'person',
] as const;
export type ResponderType = (typeof RESPONDER_TYPES)[number];

export function isResponderType(value: string): value is ResponderType {
  return (RESPONDER_TYPES as readonly string[]).includes(value);
}

/**
 * Required fields of responders.properties per type (spec 000 §3). `instance` names the Jira or Planner connection
 * (its id, name or namespace/name). A person responder needs person_id on the row rather than a property.
 */
export const RESPONDER_REQUIRED_FIELDS: Readonly<Record<ResponderType, readonly string[]>> = {
  email: ['to', 'subject', 'body'],
  jira: ['project', 'issueType', 'priority', 'summary', 'description', 'instance'],
  service_now: [],
  ca: [],
  redhat: [],
  aws_support: [],
  aws_ams_services_request: ['category', 'description', 'body'],
  vmware: ['product', 'category', 'description', 'body'],
  oracle: ['product', 'category', 'description', 'body'],
  ms_planner: ['plan_id', 'bucket_id', 'priority', 'title', 'description', 'instance'],
  person: [],
};

export const RESPONDER_FIELD_MESSAGE = 'Please provide valid value';

/** Field name to message for every required field that is missing or blank. */
export function validateResponderProperties(type: ResponderType, properties: Readonly<Record<string, unknown>>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of RESPONDER_REQUIRED_FIELDS[type]) {
    const value = properties[field];
    const present = typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.trim() !== '');
    if (!present) problems[field] = RESPONDER_FIELD_MESSAGE;
  }
  return problems;
}

export const RESPONDER_PROGRESS_STEPS = ['Created', 'Acknowledged', 'Resolved', 'Closed'] as const;
export type ResponderProgressStep = (typeof RESPONDER_PROGRESS_STEPS)[number];

export interface ResponderTimes {
  acknowledge_time: string | null;
  signoff_time: string | null;
  close_time: string | null;
}

/** The current step is the first whose time is missing; a responder with all three times is Closed. */
export function responderProgressStep(times: ResponderTimes): ResponderProgressStep {
  if (times.acknowledge_time === null) return 'Created';
  if (times.signoff_time === null) return 'Acknowledged';
  if (times.close_time === null) return 'Resolved';
  return 'Closed';
}

export const INCIDENT_HISTORY_EVENTS = [
  'incident.created',
  'incident.status_updated',
  'incident_status.updated',
  'responder.created',
  'responder.commented',
  'evidence.created',
  'evidence.done_definition_added',
  'hypothesis.created',
  'hypothesis.status_updated',
] as const;
export type IncidentHistoryEvent = (typeof INCIDENT_HISTORY_EVENTS)[number];

/**
 * Mentions in comment text are written `@[Display Name](user:<person uuid>)`: the name shows without a lookup and the
 * id survives renames. A closing bracket or backslash inside the name is escaped with a backslash.
 */
export interface Mention {
  name: string;
  id: string;
}

const MENTION_PATTERN = /@\[((?:\\.|[^\]\\])*)\]\(user:([0-9a-fA-F-]{36})\)/g;

export function formatMention(mention: Mention): string {
  return `@[${mention.name.replace(/[\\\]]/g, (c) => `\\${c}`)}](user:${mention.id})`;
}

export function parseMentions(text: string): Mention[] {
  return [...text.matchAll(MENTION_PATTERN)].map((match) => ({
    name: (match[1] ?? '').replace(/\\(.)/g, '$1'),
    id: (match[2] ?? '').toLowerCase(),
  }));
}

/** Comment text with each mention replaced by `@Name`, for plain-text renderings such as the postmortem. */
export function mentionsToPlainText(text: string): string {
  return text.replace(MENTION_PATTERN, (_whole, name: string) => `@${name.replace(/\\(.)/g, '$1')}`);
}

/** User-facing texts of the incident area (spec 000 §2, §4, §5, §8). */
export const INCIDENT_MESSAGES = {
  searchPlaceholder: 'Search for incident',
  listEmpty: 'There are no incidents matching this criteria',
  createTitle: 'Create New Incident',
  notFound: 'Incident not found',
  tabComments: 'Comments',
  tabActionPlan: 'Action Plan',
  commentNeedsHypothesis: 'Please select any hypothesis',
  commentNeedsText: 'Please add comment details',
  definitionOfDoneDialogTitle: 'Add contributing factors to definition of done',
  statusNeedsEvidence: 'Please select atleast one evidence',
  statusUpdated: 'Incident status updated successfully',
  statusUpdateFailed: 'Incident status updated failed',
  responderAdded: 'Responder added successfully',
  responderDeleted: 'Responder deleted successfully',
  noTeamResponders: 'There were no responders configured for this team',
  evidenceDeleteFailed: 'Evidence delete failed',
  definitionOfDoneRemoveFailed: 'Removing evidence from definition of done failed',
  definitionOfDoneAddFailed: 'Marking evidence as part of definition of done failed',
  markResolved: 'Mark as resolved',
  markNotResolved: 'Mark as not resolved',
  componentIsHealth: 'Component is Health',
  linkDialogTitle: 'Link to Incident',
  attachAsEvidence: 'Attach as Evidence',
  linked: 'Linked to incident successfully',
  linkNeedsIncident: 'Must select or create an incident',
  linkNeedsHypothesis: 'Must select or create a hypothesis',
  linkNeedsSeverity: 'Please select incident severity',
  linkNeedsType: 'Please select an incident type',
  responderFieldInvalid: RESPONDER_FIELD_MESSAGE,
  fieldRequired: 'This field is required',
  noData: 'No data available',
  noChangelog: 'No changelog found',
  noEvidence: 'There are no evidences provided for this incident',
  noEvidenceOutsideDefinitionOfDone: 'There are no evidences which are not part of definition of done',
  noEvidenceShort: 'No Evidence',
} as const;
