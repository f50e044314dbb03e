import { useSearchParams } from 'react-router';
import { usePermissions } from '@/lib/auth/permissions';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import { AgentEditorDialog } from './agent-editor-dialog';

/** The query parameters that open the editor: `id` edits that agent, `addAgent` (any value) creates one. */
export const AGENT_EDITOR_PARAMS = { id: 'id', add: 'addAgent' } as const;

/**
 * Opens the agent editor from the URL (spec 001 §2.2, §2.6), so a link can open it and Back closes it; closing removes
 * both parameters. Creating needs write on agents, so without it `addAgent` opens nothing. An `id` opens the agent
 * read-only for users who may read agents but not write them, since reading is all the spec keeps from them. With the
 * agents feature switched off (agents.disable) neither parameter opens anything.
 */
export function AgentEditorFromSearchParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { can, isReady } = usePermissions();
  const flags = useFeatureFlags();
  const id = searchParams.get(AGENT_EDITOR_PARAMS.id);
  const isAdding = searchParams.has(AGENT_EDITOR_PARAMS.add);

  const handleClose = () =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      next.delete(AGENT_EDITOR_PARAMS.id);
      next.delete(AGENT_EDITOR_PARAMS.add);
      return next;
    });

  if (!isReady || flags.isLoading || !flags.isEnabled('agents')) return null;
  if (id !== null && id !== '' && can('agents', 'read')) {
    return <AgentEditorDialog key={id} mode={{ kind: 'edit', id }} readOnly={!can('agents', 'write')} onClose={handleClose} />;
  }
  if (isAdding && can('agents', 'write')) return <AgentEditorDialog key="create" mode={{ kind: 'create' }} onClose={handleClose} />;
  return null;
}
