import type { ResourceOrigin } from '@/lib/resource-origin/resource-origin';

/** A row of a settings table's status view (spec 002 §3 'Settings resource (generic)'). */
export interface SettingsResourceRow extends ResourceOrigin {
  id: string;
  name: string;
  namespace: string | null;
  labels: Record<string, string> | null;
  spec: Record<string, unknown> | null;
  icon?: string | null;
  description?: string | null;
  schedule?: string | null;
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
  /** The agent that owns the resource; null (or the all-zero id) for none. */
  agent_id: string | null;
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
