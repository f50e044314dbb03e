/** The agent a resource row names, joined in by the list views. */
export interface AgentRef {
  id: string;
  name: string;
}

/** Where a resource comes from and who made it: columns every status view of a settings table carries (spec 002 §3). */
export interface ResourceOrigin {
  source: string | null;
  agent_id: string | null;
  agent: AgentRef | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** The all-zero agent id means the resource belongs to no agent (spec 002 §3). */
export const NO_AGENT_ID = '00000000-0000-0000-0000-000000000000';

/** Resources made in the UI are editable; any other source (an agent, kubernetes, a file) owns their spec. */
export function isUiSource(source: string | null | undefined): boolean {
  return source === null || source === undefined || source === '' || source === 'UI';
}

/**
 * Rows applied from manifests (npm run apply, POST /api/apply, a GitOps folder; ADR 0074): the server refuses console
 * edits of them (OD_APPLIED_READ_ONLY), so the console shows them read-only and says where to change them.
 */
export function appliedOrigin(source: string | null | undefined): string | null {
  if (source === 'apply') return 'npm run apply (POST /api/apply)';
  if (typeof source === 'string' && source.startsWith('gitops:')) return `the GitOps folder ${source.slice('gitops:'.length)}`;
  return null;
}

/** The topology that keeps a canary for one of its inline checks (source `topology:<id>/<entry>`), or null. */
export function owningTopologyId(source: string | null | undefined): string | null {
  const match = typeof source === 'string' ? /^topology:([0-9a-f-]{36})\//.exec(source) : null;
  return match?.[1] ?? null;
}
