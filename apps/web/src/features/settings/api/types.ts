export interface AgentRef {
  id: string;
  name: string;
}

/** A row of a settings table's status view (spec 002 §3 'Settings resource (generic)'). */
export interface SettingsResourceRow {
  id: string;
  name: string;
  namespace: string | null;
  labels: Record<string, string> | null;
  spec: Record<string, unknown> | null;
  icon?: string | null;
  description?: string | null;
  schedule?: string | null;
  source: string | null;
  agent_id: string | null;
  agent: AgentRef | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  last_runtime?: string | null;
  job_last_failed?: string | null;
  job_status?: string | null;
  job_details?: unknown;
  job_name?: string | null;
}

/** One resource as the detail page edits it. */
export interface SettingsResource {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  icon: string | null;
  description: string | null;
  schedule: string | null;
  source: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface SettingsResourceInput {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  icon?: string | null;
  description?: string | null;
  schedule?: string | null;
}

export type { Person } from '@/lib/api/people';

export interface JobHistoryEntry {
  id: string;
  name: string;
  status: string;
  time_start: string | null;
  duration_millis: number | null;
  success_count: number | null;
  error_count: number | null;
  created_at: string;
}

/** Resources created in the UI are editable; anything else was defined elsewhere and is only shown. */
export function isUiSource(source: string | null | undefined): boolean {
  return source === null || source === undefined || source === '' || source === 'UI';
}

/** The all-zero agent id means the resource belongs to no agent (spec 002 §3). */
export const NO_AGENT_ID = '00000000-0000-0000-0000-000000000000';
