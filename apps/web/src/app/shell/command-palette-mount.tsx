import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Play, Siren } from 'lucide-react';
import { CommandPaletteProvider } from '@/features/command-palette/components/command-palette-provider';
import type { PaletteAction, PalettePage } from '@/features/command-palette/components/palette-entries';
import { CreateIncidentDialog } from '@/features/incidents/components/create-incident-dialog';
import { usePermissions } from '@/lib/auth/permissions';
import { useVisibleNavigation } from '../use-visible-navigation';

// The sidebar paths whose visibility decides the Create incident and Run a playbook actions.
const INCIDENTS_PATH_FOR_PALETTE = '/incidents';
const PLAYBOOKS_PATH_FOR_PALETTE = '/playbooks';

/**
 * Composes the command palette with what only the app knows: the pages of the sidebar this person sees (the same
 * visibility rules: role, feature flags, hosted mode) and the actions that reach into other features — the incidents
 * feature's Create Incident dialog, the playbooks page. Features never import each other, so they meet here.
 */
export function CommandPaletteMount({ children }: { children: ReactNode }) {
  const navigation = useVisibleNavigation();
  const permissions = usePermissions();
  const navigate = useNavigate();
  const [creatingIncident, setCreatingIncident] = useState(false);

  const pages = useMemo<PalettePage[]>(
    () => [
      ...navigation.primary.map((entry) => ({ label: entry.label, path: entry.path, group: 'Pages', icon: entry.icon })),
      ...navigation.settings.map((entry) => ({ label: entry.label, path: entry.path, group: 'Settings', icon: entry.icon })),
    ],
    [navigation],
  );

  const incidentsShown = navigation.primary.some((entry) => entry.path === INCIDENTS_PATH_FOR_PALETTE);
  const playbooksShown = navigation.primary.some((entry) => entry.path === PLAYBOOKS_PATH_FOR_PALETTE);
  const mayCreateIncident = incidentsShown && permissions.can('incident', 'write');
  const mayRunPlaybook = playbooksShown && permissions.can('playbook_runs', 'write');
  const actions = useMemo<PaletteAction[]>(
    () => [
      ...(mayCreateIncident
        ? [{ id: 'create-incident', label: 'Create incident', keywords: ['new incident', 'open incident'], icon: Siren, onSelect: () => setCreatingIncident(true) }]
        : []),
      // A playbook runs against a target and with parameters its own page asks for: the palette takes you to the list.
      ...(mayRunPlaybook
        ? [{ id: 'run-playbook', label: 'Run a playbook', keywords: ['playbooks', 'execute'], icon: Play, onSelect: () => void navigate(PLAYBOOKS_PATH_FOR_PALETTE) }]
        : []),
    ],
    [mayCreateIncident, mayRunPlaybook, navigate],
  );

  return (
    <CommandPaletteProvider pages={pages} actions={actions}>
      {children}
      {creatingIncident && <CreateIncidentDialog open onOpenChange={setCreatingIncident} />}
    </CommandPaletteProvider>
  );
}
