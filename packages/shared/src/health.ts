export type CheckHealth = 'healthy' | 'unhealthy' | 'warning' | 'unknown';

/** A check as GET /api/canary/api/summary returns it (spec 001 §3 'Check'); the server builds it, the web reads it. */
export interface CheckSummary {
  id: string;
  name: string;
  canary_id: string;
  canary_name: string;
  namespace: string | null;
  agent_id: string | null;
  agent_name: string | null;
  type: string;
  icon: string | null;
  endpoint: string | null;
  description: string | null;
  owner: string | null;
  labels: Record<string, string>;
  /** The stored result of the last run. */
  status: 'healthy' | 'unhealthy' | null;
  /** Derived over the time range: a check passing now that failed at least once in it is a warning; never run is unknown. */
  health: CheckHealth;
  severity: string | null;
  uptime: { passed: number; failed: number };
  latency: { p95: number | null; p97: number | null; p99: number | null };
  last_runtime: string | null;
  next_runtime: string | null;
  last_transition_time: string | null;
  created_at: string;
  deleted_at: string | null;
}
